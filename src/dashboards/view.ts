import { SharedCache } from '../db/cache.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/principal.ts'
import { allowed } from '../permissions/can.ts'
import { resultById, resultRowObjects } from '../results/service.ts'
import { iso } from '../shared/time.ts'
import { renderVisualizationSvg } from '../visualizations/render.server.ts'
import { DASHBOARD_GRID as GRID, placeOf, type WidgetPlace } from '../shared/dashboard-grid.ts'
import { dashboardParameters, widgetLevelParameters } from '../shared/dashboard-parameters.ts'
import { selectionFromSearch, type FilterSelection } from '../visualizations/filter-choices.ts'
import { deriveFilters, type Filter } from '../visualizations/filters.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import { dashboardDetails, type DashboardJson } from './details.ts'
import { renderMarkdown } from './markdown.ts'
import type { DashboardRow } from './store.ts'

/** The grid as the page draws it (spec 1 §9): rows of 50 px on a desk-sized width, a widget's header above its chart. */
export { placeOf, type WidgetPlace }

export const GRID_VIEW = { rowHeight: 50, width: 1200, gap: 16, headerHeight: 56, maxRowsDrawn: 5000 } as const


/** One widget ready to show: its place, its title, and its body as markup drawn on the server. */
export type WidgetView = { id: number; place: WidgetPlace } & (
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
 * Drawings by visualization (as last saved), result and size. A stored result never changes, so a drawing is exact
 * for as long as it is kept: the hundredth viewer of a morning dashboard gets markup, not a new drawing. Entries are
 * made only after the viewer was found to see the widget, and say nothing but what the widget shows.
 */
const drawings = new SharedCache<string>(15 * 60_000, 500)

/** The filters each stored result defines (as JSON), so a widget drawn from the cache still offers its filters. */
const filtersByResult = new SharedCache<string>(15 * 60_000, 500)

/** The pixel size a chart is drawn at: its share of the grid's width, its rows' height less the header. */
function drawingSize(place: WidgetPlace) {
  const width = Math.round((place.sizeX / GRID.columns) * GRID_VIEW.width) - GRID_VIEW.gap * 2
  const height = Math.max(80, place.sizeY * GRID_VIEW.rowHeight - GRID_VIEW.headerHeight - GRID_VIEW.gap)
  return { width, height }
}

/**
 * A dashboard as its page first shows it: every widget in reading order (row, then column, as the established tool's
 * client sorts them), charts drawn from their queries' latest stored results. Each result is read once however many
 * widgets show it. Charts of queries with parameters wait for the browser, which knows the values to run with.
 */
export async function dashboardView(deps: Deps, principal: Principal, row: DashboardRow, search = new URLSearchParams()): Promise<{ dashboard: DashboardJson; widgets: WidgetView[]; parameters: ParametersView }> {
  const dashboard = await dashboardDetails(deps, principal, row)
  const rowsByResult = new Map<number, Promise<{ columns: { name: string; type: string | null }[]; rows: Record<string, unknown>[] } | null>>()
  const readResult = (id: number) => {
    if (!rowsByResult.has(id)) {
      rowsByResult.set(id, resultById(deps, row.org_id, id).then(async (stored) =>
        stored.row_count > GRID_VIEW.maxRowsDrawn ? null : { columns: stored.columns, rows: await resultRowObjects(deps, stored) }))
    }
    return rowsByResult.get(id)!
  }
  const widgets = await Promise.all((dashboard.widgets ?? []).map(async (w): Promise<WidgetView> => {
    const isText = !('visualization' in w) && !('restricted' in w)
    const place = placeOf(w.options, isText)
    if ('restricted' in w) return { id: w.id, place, kind: 'restricted' }
    if (!('visualization' in w)) return { id: w.id, place, kind: 'text', html: renderMarkdown(w.text) }
    const v = w.visualization
    const base = {
      id: w.id, place, kind: 'chart' as const, title: v.name, queryId: v.query.id, queryName: v.query.name,
      description: v.description ?? '', retrievedAt: iso(v.query.retrieved_at),
      visualization: { id: v.id, type: v.type, options: v.options }, resultId: v.query.latest_query_data_id,
      canViewQuery: allowed(principal, 'view_query'),
      parameters: (v.query.options.parameters ?? []) as ParameterDefinition[],
      mappings: { parameterMappings: w.options.parameterMappings, paramOrder: w.options.paramOrder },
      filters: [] as Filter[], filterSelection: {} as FilterSelection,
    }
    if (base.parameters.length) return { ...base, html: null, note: 'has-parameters' }
    const resultId = v.query.latest_query_data_id
    if (resultId === null) return { ...base, html: null, note: 'never-run' }
    const cachedFilters = filtersByResult.get(String(resultId))
    let data = cachedFilters === undefined ? await readResult(resultId).catch(() => null) : undefined
    if (data === null) return { ...base, html: null, note: 'too-large' }
    const filters: Filter[] = data ? deriveFilters(data.columns, data.rows) : JSON.parse(cachedFilters!)
    if (data) filtersByResult.set(String(resultId), JSON.stringify(filters))
    // the address's choice is part of the drawing: another choice of the same result is another drawing
    const filterSelection = selectionFromSearch(search, filters)
    const withFilters = { ...base, filters, filterSelection }
    const size = drawingSize(place)
    const key = `${v.id}:${v.updated_at}:${resultId}:${size.width}x${size.height}:${JSON.stringify(filterSelection)}`
    const drawn = drawings.get(key)
    if (drawn !== undefined) return { ...withFilters, html: drawn, note: null }
    data ??= await readResult(resultId).catch(() => null)
    if (!data) return { ...withFilters, html: null, note: 'too-large' }
    try {
      const html = renderVisualizationSvg({ type: v.type, options: v.options }, data, size, { filters: filterSelection })
      drawings.set(key, html)
      return { ...withFilters, html, note: null }
    } catch {
      return { ...withFilters, html: null, note: 'cannot-draw' }
    }
  }))
  widgets.sort((a, b) => a.place.row - b.place.row || a.place.col - b.place.col || a.id - b.id)
  return { dashboard, widgets, parameters: parametersView(widgets, dashboard.options) }
}

/** The dashboard-level parameters (first found in reading order) and the widget-level ones of each widget. */
function parametersView(widgets: WidgetView[], options: unknown): ParametersView {
  const charts = widgets.flatMap((w) => (w.kind === 'chart' && w.parameters.length ? [{ id: w.id, parameters: w.parameters, options: w.mappings }] : []))
  const dashboardOptions = typeof options === 'object' && options !== null ? options as Record<string, unknown> : {}
  const own = charts.map((w) => [String(w.id), widgetLevelParameters(w)] as const).filter(([, defs]) => defs.length > 0)
  return { dashboard: dashboardParameters(charts, dashboardOptions), widgets: Object.fromEntries(own) }
}
