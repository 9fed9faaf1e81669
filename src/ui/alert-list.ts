import { listVisible } from '../alerts/store.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/principal.ts'
import { requireAllowed } from '../permissions/require.ts'
import { viewerOf } from '../queries/access.ts'
import { iso } from '../shared/time.ts'
import { usersByIds } from '../users/store.ts'

/** One line of the alerts list: what its columns show, nothing more. */
export interface AlertListRow {
  id: number
  name: string
  muted: boolean
  state: string
  user_name: string
  created_at: string
  updated_at: string
}

/**
 * The rows of the alerts list page: the same alerts as GET /api/alerts (each once, on queries the viewer may see,
 * newest first), without serialising every alert's query, which the list does not show (a thousand alerts on one
 * query would otherwise be a thousand query documents for a page of twenty).
 */
export async function alertListRows(deps: Deps, principal: Principal): Promise<AlertListRow[]> {
  requireAllowed(principal, 'list_alerts')
  const rows = await listVisible(deps.sql, viewerOf(principal))
  const users = await usersByIds(deps.sql, principal.orgId, rows.map((r) => r.user_id))
  return rows.map((r) => ({
    id: r.id, name: r.name, muted: r.options.muted === true, state: r.state, user_name: users.get(r.user_id)?.name ?? '',
    created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!,
  }))
}
