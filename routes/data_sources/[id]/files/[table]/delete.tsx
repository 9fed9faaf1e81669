import { Hono } from 'hono'
import { deleteSourceFile } from '../../../../../src/data-sources/index.ts'
import { NotFound } from '../../../../../src/errors.ts'
import type { Env } from '../../../../../src/http/index.ts'
import { signedIn, idParam } from '../../../../../src/http/index.ts'

/** The delete form of a Files source's page, for one file (its table), then back to the page's Files section. */
export default new Hono<Env>()
  .post('/', async (c) => {
    const id = idParam(c.req.param('id'), NotFound)
    await deleteSourceFile(c.get('deps'), signedIn(c).principal, id, c.req.param('table')!)
    return c.redirect(`/data_sources/${id}#files`, 303)
  })
