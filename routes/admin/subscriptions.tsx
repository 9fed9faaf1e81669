import { Hono } from 'hono'
import ReportList from '../../islands/ReportList.tsx'
import { Forbidden } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import { listRows, listSubscriptions } from '../../src/reports/index.ts'
import { reportUiTexts as t } from '../../src/shared/report-texts.ts'
import { AdminLayout, renderShellPage } from '../../src/ui/index.ts'

/** Every report subscription of the organization, for admins (others get the 403 page), each to pause, resume or end. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  if (!isAdmin(principal)) throw new Forbidden()
  const rows = listRows(await listSubscriptions(c.get('deps'), principal, false))
  c.header('Cache-Control', 'no-store')
  return renderShellPage(c, (
    <AdminLayout active="subscriptions"><ReportList rows={rows} showOwner /></AdminLayout>
  ), { title: t.adminTitle })
})
