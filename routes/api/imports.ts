import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody, uploadLimit } from '../../src/http/index.ts'
import { NotFound } from '../../src/errors.ts'
import { createImport, getImport, importFiles, listImports } from '../../src/imports/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'

/**
 * Imports (admins only): from an established-tool instance (`from_url`, a job to follow), or the files of a git export
 * (`files`, applied at once and answered with what changed); and the list of past instance runs.
 */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await listImports(c.get('deps'), principal))
  })
  .post('/', requireCaller, async (c, next) => {
    // the rights first: nobody else makes the server read a large body
    requireAdmin(c.var.principal)
    await next()
  }, uploadLimit(), async (c) => {
    const { principal } = c.var
    const body = await jsonBody(c.req)
    if (body && typeof body === 'object' && 'files' in body) return c.json(await importFiles(c.get('deps'), principal, body), 200)
    return c.json(await createImport(c.get('deps'), principal, body), 202)
  })
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await getImport(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
