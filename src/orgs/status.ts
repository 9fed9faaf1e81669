import { countDashboards } from '../dashboards/store.ts'
import type { CoreDeps } from '../deps.ts'
import type { Principal } from '../permissions/principal.ts'
import { viewerOf } from '../queries/access.ts'
import { countObjects } from './store.ts'

/**
 * Object counters of the organization as the caller sees them (spec 1 §3). Alerts are not built yet: their count is
 * honestly zero, since nothing of that kind can exist.
 */
export async function objectCounters(deps: Pick<CoreDeps, 'sql'>, principal: Principal) {
  const [{ users, data_sources, queries }, dashboards] = await Promise.all([
    countObjects(deps.sql, viewerOf(principal)),
    countDashboards(deps.sql, principal.orgId),
  ])
  return { users, alerts: 0, data_sources, queries, dashboards }
}
