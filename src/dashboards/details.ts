import type { Deps } from '../deps.ts'
import { isFavorite } from '../favorites/index.ts'
import type { Principal } from '../permissions/index.ts'
import { viewerOf, withListedApiKey, findByIds, findVisualizationsByIds } from '../queries/index.ts'
import { usersByIds } from '../users/index.ts'
import { canEditDashboard } from './access.ts'
import { dashboardJson, type WidgetContext } from './serialize.ts'
import type { DashboardRow } from './store.ts'
import { listDashboardWidgets, type DashboardWidgetRow, type WidgetRow } from './widget-store.ts'

/**
 * What the widgets show, in three queries whatever their number: their visualizations, those visualizations'
 * queries (with their keys for an admin or the query's owner, decision 0025), and the people named.
 * Widgets the caller may not see are left out of every look-up, so nothing of them can reach the answer.
 */
export async function widgetContext(
  deps: Deps, orgId: number, widgets: (DashboardWidgetRow | WidgetRow)[], extraUserIds: number[] = [], principal?: Principal,
): Promise<WidgetContext> {
  const shown = widgets.filter((w) => w.visualization_id !== null && (!('visible' in w) || w.visible))
  const visualizations = new Map((await findVisualizationsByIds(deps.sql, shown.map((w) => w.visualization_id!))).map((v) => [v.id, v]))
  const queryRows = await findByIds(deps.sql, orgId, [...new Set([...visualizations.values()].map((v) => v.query_id))])
  const queries = new Map(queryRows.map((q) => [q.id, withListedApiKey(deps, principal, q)]))
  const users = await usersByIds(deps.sql, orgId, [...extraUserIds, ...queryRows.flatMap((q) => [q.user_id, q.last_modified_by_id])])
  return { visualizations, queries, users }
}

/** GET /api/dashboards/{id} and every answer that returns the whole dashboard (update, archive, fork). */
export async function dashboardDetails(deps: Deps, principal: Principal, row: DashboardRow) {
  const widgets = await listDashboardWidgets(deps.sql, viewerOf(principal), row.id)
  const [ctx, starred, canEdit] = await Promise.all([
    widgetContext(deps, row.org_id, widgets, [row.user_id], principal),
    isFavorite(deps.sql, principal, 'dashboards', row.id),
    canEditDashboard(deps.sql, principal, row),
  ])
  return dashboardJson(row, ctx.users, widgets, ctx, { isFavorite: starred, canEdit })
}

export type DashboardJson = Awaited<ReturnType<typeof dashboardDetails>>
