import { Hono } from 'hono'
import OutdatedQueries from '../../../islands/OutdatedQueries.tsx'
import { OUTDATED_LIST } from '../../../islands/lib/monitoring/outdated.ts'
import type { Env } from '../../../src/http/index.ts'
import { signedIn } from '../../../src/http/index.ts'
import { outdatedQueries } from '../../../src/monitoring/index.ts'
import { readListState } from '../../../src/shared/list/address.ts'
import { outdatedRow, type OutdatedQuery } from '../../../src/shared/monitoring.ts'
import { texts } from '../../../src/shared/texts.ts'
import { dateFormatsOf } from '../../../src/shared/time.ts'
import { AdminLayout, renderShellPage } from '../../../src/ui/index.ts'

/**
 * Outdated Queries (spec 3 §2), super admins only: the whole list, trimmed to what its table shows (no query text
 * in the page), in the order and page the address asks for when script is off.
 */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const { queries, updated_at } = await outdatedQueries(c.get('deps'), principal)
  const initial = { queries: queries.map((q) => outdatedRow(q as OutdatedQuery)), updated_at }
  return renderShellPage(c, (
    <AdminLayout active="outdated">
      <OutdatedQueries initial={initial} list={readListState(OUTDATED_LIST, new URL(c.req.url).searchParams)} formats={dateFormatsOf(org.settings)} />
    </AdminLayout>
  ), { title: texts.monitoring.outdatedQueries })
})
