import { Hono } from 'hono'
import { uploadSourceFile } from '../../../src/data-sources/index.ts'
import { HttpError, NotFound } from '../../../src/errors.ts'
import type { Env } from '../../../src/http/index.ts'
import { signedIn, uploadedFiles, uploadLimit, idParam } from '../../../src/http/index.ts'
import { requireAdmin } from '../../../src/permissions/index.ts'
import { renderDataSourcePage } from '../../../src/ui/index.ts'

/**
 * The upload form of a Files source's page, then back to the page's Files section; a refused upload shows the page
 * again with the reason above the form.
 */
export default new Hono<Env>()
  .post('/', async (c, next) => {
    requireAdmin(signedIn(c).principal)
    await next()
  }, uploadLimit(), async (c) => {
    const id = idParam(c.req.param('id'), NotFound)
    try {
      for (const file of await uploadedFiles(c)) await uploadSourceFile(c.get('deps'), signedIn(c).principal, id, file.name, file.content)
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return renderDataSourcePage(c, id, { filesError: error.message })
      throw error
    }
    return c.redirect(`/data_sources/${id}#files`, 303)
  })
