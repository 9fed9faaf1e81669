import { Hono } from 'hono'
import { deleteSourceFile, listSourceFiles, uploadSourceFile } from '../../../src/data-sources/index.ts'
import { NotFound } from '../../../src/errors.ts'
import type { Env } from '../../../src/http/index.ts'
import { requireCaller, uploadedFiles, uploadLimit, idParam } from '../../../src/http/index.ts'
import { requireAdmin } from '../../../src/permissions/index.ts'

/** A Files source's files (admins only): list, upload (multipart, fields named `file`), delete by table name. */
export default new Hono<Env>()
  .get('/:id/files', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await listSourceFiles(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
  .post('/:id/files', requireCaller, async (c, next) => {
    // the rights first: nobody else makes the server read a large body
    requireAdmin(c.var.principal)
    await next()
  }, uploadLimit(), async (c) => {
    const { principal } = c.var
    const id = idParam(c.req.param('id'), NotFound)
    const saved = []
    for (const file of await uploadedFiles(c)) saved.push(await uploadSourceFile(c.get('deps'), principal, id, file.name, file.content))
    return c.json(saved)
  })
  .delete('/:id/files/:table', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteSourceFile(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), c.req.param('table'))
    return c.body(null, 204)
  })
