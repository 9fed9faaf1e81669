import { Hono } from 'hono'
import ImportRunner from '../../islands/ImportRunner.tsx'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { listImports } from '../../src/imports/index.ts'
import { importTexts } from '../../src/shared/import-summary.ts'
import type { ImportRunJson } from '../../src/shared/import-summary.ts'
import { AdminLayout, renderShellPage } from '../../src/ui/index.ts'

/** Import from the established tool (admins only; members get the 403 page): the form, the live run, past runs. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  const runs = await listImports(c.get('deps'), principal)
  return renderShellPage(c, (
    <AdminLayout active="import"><ImportRunner runs={runs as unknown as ImportRunJson[]} /></AdminLayout>
  ), { title: importTexts.title })
})
