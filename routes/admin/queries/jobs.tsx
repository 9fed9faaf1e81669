import { Hono } from 'hono'
import RqStatus from '../../../islands/RqStatus.tsx'
import { ADMIN_TABLE } from '../../../islands/lib/monitoring/list.ts'
import { readTab } from '../../../islands/lib/monitoring/rq.ts'
import type { Env } from '../../../src/http/index.ts'
import { signedIn } from '../../../src/http/index.ts'
import { rqStatus } from '../../../src/monitoring/index.ts'
import { readListState } from '../../../src/shared/list/address.ts'
import { texts } from '../../../src/shared/texts.ts'
import { dateFormatsOf } from '../../../src/shared/time.ts'
import { AdminLayout, renderShellPage } from '../../../src/ui/index.ts'

/**
 * RQ Status (spec 3 §2), super admins only. The server never sees the hash, so it draws the tab `?tab=` names
 * (what the tabs link to without script) and the island follows the hash once it runs.
 */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const status = await rqStatus(c.get('deps'), principal)
  const params = new URL(c.req.url).searchParams
  return renderShellPage(c, (
    <AdminLayout active="jobs">
      <RqStatus initial={status} tab={readTab(params.get('tab'))} list={readListState(ADMIN_TABLE, params)} formats={dateFormatsOf(org.settings)} />
    </AdminLayout>
  ), { title: texts.monitoring.rqStatus })
})
