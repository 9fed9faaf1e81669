import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { apiCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { NotFound } from '../../src/errors.ts'
import { createImport, getImport, listImports } from '../../src/imports/index.ts'

/** Imports from an established-tool instance (admins only): start one, follow it, list past runs. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await listImports(c.get('deps'), principal))
  })
  .post('/', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await createImport(c.get('deps'), principal, await jsonBody(c.req)), 202)
  })
  .get('/:id', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await getImport(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
