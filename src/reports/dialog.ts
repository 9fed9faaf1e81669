import { canEditDashboard } from '../dashboards/index.ts'
import type { DashboardRow } from '../dashboards/index.ts'
import type { Deps } from '../deps.ts'
import { isAdmin } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { canEditQuery } from '../queries/index.ts'
import type { AccessibleQueryRow } from '../queries/index.ts'
import { findTimeZoneSetting } from '../settings/index.ts'
import { findUserTimeZone } from '../users/index.ts'
import { REPORT_DESTINATION_KINDS } from './service.ts'
import { shareChoices } from './store.ts'

/**
 * The Subscribe dialog's props, decided on the server: whether the caller may send to others (edit rights or admin;
 * the API checks again), and only then the organization's people, groups and destinations of the kinds reports go to.
 */
export async function subscribeDialogProps(
  deps: Deps, principal: Principal, target: { dashboard: DashboardRow } | { query: AccessibleQueryRow; visualizations: { id: number; name: string }[] },
) {
  const mayShare = isAdmin(principal) || ('dashboard' in target
    ? await canEditDashboard(deps.sql, principal, target.dashboard)
    : await canEditQuery(deps.sql, principal, target.query))
  const choices = mayShare ? await shareChoices(deps.sql, principal.orgId) : { users: [], groups: [], destinations: [] }
  const asNamed = (rows: { id: number; name: string }[]) => rows.map((r) => ({ id: Number(r.id), name: r.name }))
  return {
    target: 'dashboard' in target
      ? { dashboard_id: Number(target.dashboard.id) }
      : { query_id: Number(target.query.id), visualizations: target.visualizations },
    me: principal.id,
    mayShare,
    users: asNamed(choices.users),
    groups: asNamed(choices.groups),
    destinations: choices.destinations.filter((d) => REPORT_DESTINATION_KINDS.includes(d.type)).map((d) => ({ id: Number(d.id), name: d.name, type: d.type })),
    timeZone: (await findTimeZoneSetting(deps.sql, principal.orgId)) ?? 'UTC',
    // offered beside the organization's, and chosen first: "every Monday at 8" is meant on one's own clock
    userTimeZone: await findUserTimeZone(deps.sql, principal.orgId, principal.id),
  }
}
