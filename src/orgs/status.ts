import type { CoreDeps } from '../deps.ts'
import type { Principal } from '../permissions/principal.ts'
import { viewerOf } from '../queries/access.ts'
import { countObjects } from './store.ts'

/**
 * Object counters of the organization as the caller sees them (spec 1 §3). Dashboards and alerts are not built yet:
 * their counts are honestly zero, since nothing of that kind can exist.
 */
export async function objectCounters(deps: Pick<CoreDeps, 'sql'>, principal: Principal) {
  const { users, data_sources, queries } = await countObjects(deps.sql, viewerOf(principal))
  return { users, alerts: 0, data_sources, queries, dashboards: 0 }
}
