import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { allowed } from '../permissions/index.ts'
import { iso, type DateFormats } from '../shared/time.ts'
import { isAutoHeight, placeOf, type WidgetPlace } from '../shared/dashboard-grid.ts'
import { dashboardParameters, stateFromSearch, widgetLevelParameters, widgetRunValues } from '../shared/dashboard-parameters.ts'
import { selectionFromSearch, type FilterSelection } from '../visualizations/filter-choices.ts'
import type { Filter } from '../visualizations/filters.ts'
import { drawingSize, drawResult, GRID_VIEW, resultReader } from '../results/index.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import { dashboardDetails, type DashboardJson } from './details.ts'
import { renderMarkdown } from './markdown.ts'
import { storedResultFor } from './widget-results.ts'
import type { DashboardRow } from './store.ts'

/** The grid as the page draws it (spec 1 §9), and a widget's place on it. */
export { GRID_VIEW, placeOf, type WidgetPlace }

/** One widget ready to show: its place, its title, and its body as markup drawn on the server. */
/** `autoHeight`: its rows follow its content in the browser (islands/DashboardAutoHeight.tsx); `place` is the last height. */
export type WidgetView = { id: number; place: WidgetPlace; autoHeight: boolean } & (
  | { kind: 'text'; html: string }
  | { kind: 'restricted' }
  | {
    kind: 'chart'; title: string; queryId: number; queryName: string; description: string
    /** What the browser needs to draw it again (a refreshed result, the expanded view). */
    visualization: { id: number; type: string; options: unknown }
    /** The result drawn: the query's latest, which the widget's downloads read. */
    resultId: number | null
    /** spec 2 §6: with view_query the widget links to its query; without, its name is plain text. */
    canViewQuery: boolean
    /** The drawing (svg or table markup), or null with a note saying why there is none. */
    html: string | null
    note: 'never-run' | 'too-large' | 'cannot-draw' | 'has-parameters' | null
    retrievedAt: string | null
    /** The query's parameters and the widget's mappings of them: the browser runs it with the values they give. */
    parameters: ParameterDefinition[]
    mappings: { parameterMappings?: unknown; paramOrder?: unknown }
    /** The result filters its rows define (empty for most), and the values the address chose, drawn with. */
    filters: Filter[]
    filterSelection: FilterSelection
  }
)

/** The dashboard's parameters and each widget's own ones (by widget id), for the parameters panel. */
export interface ParametersView {
  dashboard: ParameterDefinition[]
  widgets: Record<string, ParameterDefinition[]>
}

/**
 * A dashboard as its page first shows it: every widget in reading order (row, then column, as the established tool's
 * client sorts them), charts drawn from their queries' latest stored results. Each result is read once however many
 * widgets show it. Charts of queries with parameters show the stored result of the address's values, if any.
 */
export async function dashboardView(deps: Deps, principal: Principal, row: DashboardRow, formats: DateFormats, search = new URLSearchParams()): Promise<{ dashboard: DashboardJson; widgets: WidgetView[]; parameters: ParametersView }> {
  return drawDashboard(deps, row, await dashboardDetails(deps, principal, row), search, { canViewQuery: allowed(principal, 'view_query'), reader: principal }, formats)
}

/** A chart's size once its result's filters are known: a card with its own filter bar has less room (drawing.ts). */
const sizedFor = (place: WidgetPlace, dashboard: DashboardJson) => (filters: Filter[]) =>
  drawingSize(place, { filterBar: filters.length > 0 && dashboard.dashboard_filters_enabled !== true })

/**
 * The drawing of a dashboard answer already made for its viewer (a signed-in one's, or a public page's): `reader`
 * is who reads the results drawn, the viewer or a share token's creator. The answer marked restricted every widget
 * whose latest result they may not read; the results of other parameter values are checked as they are found.
 */
export async function drawDashboard(
  deps: Deps, row: DashboardRow, dashboard: DashboardJson, search: URLSearchParams, viewer: { canViewQuery: boolean; reader: Principal },
  formats: DateFormats,
): Promise<{ dashboard: DashboardJson; widgets: WidgetView[]; parameters: ParametersView }> {
  const { canViewQuery, reader } = viewer
  const readResult = resultReader(deps, row.org_id, reader)
  const widgets = await Promise.all((dashboard.widgets ?? []).map(async (w): Promise<WidgetView> => {
    const isText = !('visualization' in w) && !('restricted' in w)
    const place = placeOf(w.options, isText)
    const autoHeight = isAutoHeight(w.options)
    if ('restricted' in w) return { id: w.id, place, autoHeight, kind: 'restricted' }
    if (!('visualization' in w)) return { id: w.id, place, autoHeight, kind: 'text', html: renderMarkdown(w.text) }
    const v = w.visualization
    const base = {
      id: w.id, place, autoHeight, kind: 'chart' as const, title: v.name, queryId: v.query.id, queryName: v.query.name,
      description: v.description ?? '', retrievedAt: iso(v.query.retrieved_at),
      visualization: { id: v.id, type: v.type, options: v.options }, resultId: v.query.latest_query_data_id,
      canViewQuery,
      parameters: (v.query.options.parameters ?? []) as ParameterDefinition[],
      mappings: { parameterMappings: w.options.parameterMappings, paramOrder: w.options.paramOrder },
      filters: [] as Filter[], filterSelection: {} as FilterSelection,
    }
    // drawn below, once the dashboard's parameters (and so the values the address asks for) are known
    if (base.parameters.length) return { ...base, html: null, note: 'has-parameters' }
    const resultId = v.query.latest_query_data_id
    if (resultId === null) return { ...base, html: null, note: 'never-run' }
    const drawn = await drawResult(deps, readResult, v, resultId, sizedFor(place, dashboard), (filters) => selectionFromSearch(search, filters), formats)
    return { ...base, html: drawn.html, note: drawn.note, filters: drawn.filters, filterSelection: drawn.selection }
  }))
  widgets.sort((a, b) => a.place.row - b.place.row || a.place.col - b.place.col || a.id - b.id)
  const parameters = parametersView(widgets, dashboard.options)
  const drawn = await drawWithParameters(deps, reader, row.org_id, dashboard, widgets, parameters, search, readResult, formats)
  return { dashboard, widgets: drawn, parameters }
}

/**
 * Charts with parameters drawn from the stored result of the values the address asks for (else the saved and query
 * defaults), when those values ran before: the first paint shows them too, and the widget's own run (max_age -1)
 * then finds the same result. Values that never ran, or that a run would refuse, leave the widget to run in the browser.
 */
async function drawWithParameters(
  deps: Deps, reader: Principal, orgId: number, dashboard: DashboardJson, widgets: WidgetView[], parameters: ParametersView, search: URLSearchParams,
  readResult: ReturnType<typeof resultReader>, formats: DateFormats,
): Promise<WidgetView[]> {
  if (!widgets.some((w) => w.kind === 'chart' && w.parameters.length)) return widgets
  const state = stateFromSearch(search, parameters.dashboard, parameters.widgets)
  const queries = new Map((dashboard.widgets ?? []).flatMap((w) => ('visualization' in w ? [[w.id, w.visualization] as const] : [])))
  return Promise.all(widgets.map(async (w): Promise<WidgetView> => {
    const v = queries.get(w.id)
    if (w.kind !== 'chart' || !w.parameters.length || !v) return w
    const values = widgetRunValues({ id: w.id, parameters: w.parameters, options: w.mappings }, state)
    const result = await storedResultFor(deps, reader, orgId, { query: v.query.query, data_source_id: v.query.data_source_id, options: v.query.options }, values).catch(() => undefined)
    if (!result) return w
    const drawn = await drawResult(deps, readResult, v, result.id, sizedFor(w.place, dashboard), (filters) => selectionFromSearch(search, filters), formats)
    return {
      ...w, html: drawn.html, note: drawn.note, filters: drawn.filters, filterSelection: drawn.selection,
      resultId: result.id, retrievedAt: iso(result.retrieved_at),
    }
  }))
}

/** The dashboard-level parameters (first found in reading order) and the widget-level ones of each widget. */
function parametersView(widgets: WidgetView[], options: unknown): ParametersView {
  const charts = widgets.flatMap((w) => (w.kind === 'chart' && w.parameters.length ? [{ id: w.id, parameters: w.parameters, options: w.mappings }] : []))
  const dashboardOptions = typeof options === 'object' && options !== null ? options as Record<string, unknown> : {}
  const own = charts.map((w) => [String(w.id), widgetLevelParameters(w)] as const).filter(([, defs]) => defs.length > 0)
  return { dashboard: dashboardParameters(charts, dashboardOptions), widgets: Object.fromEntries(own) }
}
