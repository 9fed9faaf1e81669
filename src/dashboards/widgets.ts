import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { viewerOf, findVisible, findVisualization } from '../queries/index.ts'
import { getDashboardRow, requireEditDashboard } from './access.ts'
import { lowestFreePlace, placeOf } from '../shared/dashboard-grid.ts'
import { GRID, parseCreateWidget, parseUpdateWidget } from './body.ts'
import { widgetContext } from './details.ts'
import { widgetJson } from './serialize.ts'
import type { DashboardRow } from './store.ts'
import * as store from './widget-store.ts'

export const widgetTexts = {
  notFound: 'Widget not found.',
  visualizationNotFound: 'Visualization not found.',
  archivedQuery: "The visualization's query is archived: restore it before adding it to a dashboard.",
  cannotSeeQuery: "You don't have access to this visualization's query.",
}

/** Where a widget goes when the caller names no place: its default size (spec 1 §9) at the lowest free position. */
function defaultPosition(existing: store.WidgetRow[], isText: boolean) {
  const size = isText ? { sizeX: 3, sizeY: 3 } : { sizeX: GRID.columns / 2, sizeY: 8 }
  const places = existing.map((w) => placeOf(w.options, w.visualization_id === null))
  return { ...lowestFreePlace(places, size.sizeX), ...size, autoHeight: false }
}

/** The widget and its dashboard, for a change: 404 for another organization's, 403 without edit rights. */
async function editableWidget(deps: Deps, principal: Principal, id: number): Promise<{ widget: store.WidgetRow; dashboard: DashboardRow }> {
  const widget = await store.findWidget(deps.sql, id)
  if (!widget) throw new NotFound(widgetTexts.notFound)
  const dashboard = await getDashboardRow(deps, principal, widget.dashboard_id).catch((error) => {
    throw error instanceof NotFound ? new NotFound(widgetTexts.notFound) : error
  })
  await requireEditDashboard(deps.sql, principal, dashboard)
  return { widget, dashboard }
}

/** The widget as the caller may see it: restricted when its query is not theirs to see, even for an editor. */
async function answer(deps: Deps, principal: Principal, dashboard: DashboardRow, id: number) {
  const widget = (await store.listDashboardWidgets(deps.sql, viewerOf(principal), dashboard.id)).find((w) => w.id === id)
  if (!widget) throw new NotFound(widgetTexts.notFound)
  return widgetJson(widget, await widgetContext(deps, dashboard.org_id, [widget], [], principal))
}

/**
 * POST /api/widgets (reference §7.2): edit rights on the dashboard, and for a chart, a visualization of the caller's
 * organization whose query they may see (403) and that is not archived (400). Without a position the widget goes
 * to the lowest free position.
 */
export async function createWidget(deps: Deps, principal: Principal, body: unknown) {
  const input = parseCreateWidget(body)
  const dashboard = await getDashboardRow(deps, principal, input.dashboardId)
  await requireEditDashboard(deps.sql, principal, dashboard)
  if (input.visualizationId !== null) {
    const visualization = await findVisualization(deps.sql, principal.orgId, input.visualizationId)
    if (!visualization) throw new NotFound(widgetTexts.visualizationNotFound)
    const query = await findVisible(deps.sql, viewerOf(principal), visualization.query_id)
    if (!query) throw new Forbidden(widgetTexts.cannotSeeQuery)
    if (query.is_archived) throw new BadRequest(widgetTexts.archivedQuery)
  }
  const options = { isHidden: false, ...input.options }
  if (!options.position) {
    const existing = await store.listDashboardWidgets(deps.sql, viewerOf(principal), dashboard.id)
    options.position = defaultPosition(existing, input.visualizationId === null)
  }
  const widget = await audited<store.WidgetRow>(deps.sql, principal, (row) => ({ action: 'create', objectType: 'widget', objectId: row.id }), (tx) =>
    store.insertWidget(tx, { dashboardId: dashboard.id, visualizationId: input.visualizationId, text: input.text, options }))
  return answer(deps, principal, dashboard, widget.id)
}

/** POST /api/widgets/{id} {text, options}: edit rights on its dashboard. */
export async function updateWidget(deps: Deps, principal: Principal, id: number, body: unknown) {
  const input = parseUpdateWidget(body)
  const { widget, dashboard } = await editableWidget(deps, principal, id)
  await store.updateWidget(deps.sql, widget.id, input)
  return answer(deps, principal, dashboard, widget.id)
}

/** DELETE /api/widgets/{id}: edit rights on its dashboard. */
export async function deleteWidget(deps: Deps, principal: Principal, id: number): Promise<void> {
  const { widget } = await editableWidget(deps, principal, id)
  await audited(deps.sql, principal, { action: 'delete', objectType: 'widget', objectId: widget.id }, (tx) => store.deleteWidget(tx, widget.id))
}
