import { countVisible as countAlerts } from '../alerts/index.ts'
import { countDashboards } from '../dashboards/index.ts'
import type { CoreDeps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { listViewer } from '../queries/index.ts'
import { countObjects } from './counters-store.ts'

/** Object counters of the organization as the caller sees them (spec 1 §3): each counts what its list would show. */
export async function objectCounters(deps: Pick<CoreDeps, 'sql'>, principal: Principal) {
  const viewer = await listViewer(deps.sql, principal)
  const [{ users, data_sources, queries }, dashboards, alerts] = await Promise.all([
    countObjects(deps.sql, viewer),
    countDashboards(deps.sql, principal.orgId),
    countAlerts(deps.sql, viewer),
  ])
  return { users, alerts, data_sources, queries, dashboards }
}
