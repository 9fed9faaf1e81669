import { findDataSource } from '../data-sources/index.ts'
import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { queryHash, fillParameters, textToRun } from '../executions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { viewerOf, unsafeTexts, findVisible, type QueryRow, type VisualizationRow, findVisualization } from '../queries/index.ts'
import { mayReadSourcesOf, findFresh, findResult, type ResultRow, drawingSize, drawResult, resultReader } from '../results/index.ts'
import { RESULTS_TYPE } from '../runners/index.ts'
import { placeOf } from '../shared/dashboard-grid.ts'
import { dashboardTexts } from '../shared/dashboard-texts.ts'
import { isSafe, type ParameterDefinition } from '../shared/parameters/index.ts'
import { iso, type DateFormats } from '../shared/time.ts'
import type { WidgetDrawing } from '../visualizations/widget-drawing.ts'
import type { FilterSelection } from '../visualizations/filter-choices.ts'
import type { Filter } from '../visualizations/filters.ts'
import { getDashboardRow } from './access.ts'
import { findQueryShownBy } from './share-store.ts'
import type { DashboardRow } from './store.ts'
import { widgetTexts } from './widgets.ts'
import * as store from './widget-store.ts'

/**
 * A live share token as every call it opens sees it (`Authorization: Key <share token>`, the public page and its
 * scripts): its dashboard, and the rights of the user who turned sharing on, as they are at this request.
 */
export interface SharedDashboard {
  dashboard: DashboardRow
  /** The share key's creator (src/credentials/service.ts `principalForShareKey`): the token never sees more than they may. */
  creator: Principal
}

/**
 * Who asks for a widget's results. A signed-in user (or their key) sees a widget's results when they may open its
 * dashboard and see its query; a dashboard share token becomes a `sharedDashboard` caller that sees the results of
 * that dashboard's own widgets whose query the token's creator may see, and nothing else.
 */
export type WidgetResultsCaller =
  | { principal: Principal }
  | { sharedDashboard: SharedDashboard }

export interface OpenedWidget {
  widget: store.WidgetRow
  visualization: VisualizationRow
  query: QueryRow
  /** Signed in: false for a share token, whose caller may only read what the dashboard's owner chose to show. */
  signedIn: boolean
  /** Who reads the widget's results: the signed-in caller, or the share token's creator. */
  reader: Principal
  /** The dashboard shows result filters in its own panel, so no card has a filter bar above its chart. */
  filtersMerged: boolean
}

/**
 * A query a token never opens, whatever else holds: one with text parameters (its text takes any value, so its
 * stored results may hold what a signed-in member typed). A dashboard with such a chart can still be shared, as the
 * established tool allows; that chart is unavailable on the public page (src/dashboards/public.ts).
 */
export const closedToTokens = (query: Pick<QueryRow, 'query' | 'options'>) =>
  !isSafe((query.options.parameters ?? []) as ParameterDefinition[], query.query)

/**
 * THE rule of share tokens, for every call a token opens (the public shape and page list widgets by the same
 * creator's rights): a query a chart of the shared dashboard shows, not archived, visible to the token's creator now
 * by the data-source rules of their groups (`findVisible`), and not closed to tokens (`closedToTokens`). `closed`:
 * the query would be opened but for its text parameters (so a caller can say why); undefined otherwise.
 */
export async function sharedQueryAccess(deps: Deps, shared: SharedDashboard, queryId: number): Promise<{ query: QueryRow; closed: boolean } | undefined> {
  const { dashboard, creator } = shared
  if (creator.orgId !== dashboard.org_id) return undefined
  const query = await findQueryShownBy(deps.sql, dashboard.id, queryId)
  if (!query || query.org_id !== dashboard.org_id) return undefined
  // a Query Results query runs and reads as a user: a token is none (src/queries/run-saved.ts `keyMayOpen`)
  if (query.data_source_type === RESULTS_TYPE) return undefined
  if (!(await findVisible(deps.sql, viewerOf(creator), query.id))) return undefined
  return { query, closed: closedToTokens(query) }
}

/** The query a share token opens (see `sharedQueryAccess`), or undefined. */
export async function openSharedQuery(deps: Deps, shared: SharedDashboard, queryId: number): Promise<QueryRow | undefined> {
  const access = await sharedQueryAccess(deps, shared, queryId)
  return access && !access.closed ? access.query : undefined
}

/**
 * THE check of every call that reads a widget's results (today `GET api/widgets/{id}/drawing`): the widget's
 * visualization and query, when this caller may see them. A widget of another organization, or of another dashboard
 * than the shared one, is 404; a text widget has no results (404); a restricted widget (its query's source is none
 * of the caller's groups', or of the share token's creator's, or its latest result read a source the caller may not
 * read) gets nothing but the text its card shows (403), as src/dashboards/widget-store.ts `listDashboardWidgets` marks
 * it on the dashboard. Admitting another kind of caller is one branch here.
 */
export async function openWidgetResults(deps: Deps, caller: WidgetResultsCaller, widgetId: number): Promise<OpenedWidget> {
  const widget = await store.findWidget(deps.sql, widgetId)
  if (!widget || widget.visualization_id === null) throw new NotFound(widgetTexts.notFound)
  if ('sharedDashboard' in caller) {
    const shared = caller.sharedDashboard
    if (widget.dashboard_id !== shared.dashboard.id) throw new NotFound(widgetTexts.notFound)
    const visualization = await findVisualization(deps.sql, shared.dashboard.org_id, widget.visualization_id)
    if (!visualization) throw new NotFound(widgetTexts.notFound)
    const access = await sharedQueryAccess(deps, shared, visualization.query_id)
    if (!access) throw new Forbidden(dashboardTexts.restricted)
    if (access.closed) throw new Forbidden(unsafeTexts.whenShared)
    return { widget, visualization, query: access.query, signedIn: false, reader: shared.creator, filtersMerged: shared.dashboard.dashboard_filters_enabled }
  }
  const { principal } = caller
  // whoever may list dashboards may open any of the organization's (404 for other organizations')
  const dashboard = await getDashboardRow(deps, principal, widget.dashboard_id).catch((error) => {
    throw error instanceof NotFound ? new NotFound(widgetTexts.notFound) : error
  })
  const visualization = await findVisualization(deps.sql, principal.orgId, widget.visualization_id)
  if (!visualization) throw new NotFound(widgetTexts.notFound)
  const query = await findVisible(deps.sql, viewerOf(principal), visualization.query_id)
  if (!query || !(await mayReadLatestOf(deps, principal, query))) throw new Forbidden(dashboardTexts.restricted)
  return { widget, visualization, query, signedIn: true, reader: principal, filtersMerged: dashboard.dashboard_filters_enabled }
}

/** Whether the reader may read the query's latest result (a Query Results one: every source it read). */
async function mayReadLatestOf(deps: Deps, reader: Principal, query: QueryRow): Promise<boolean> {
  const latest = query.latest_query_data_id == null ? undefined : await findResult(deps.sql, query.org_id, query.latest_query_data_id)
  return !latest || mayReadSourcesOf(deps.sql, reader, latest)
}

export interface DrawingInput {
  /** The values the widget's query runs with (its mappings applied), as `POST api/queries/{id}/results` takes them. */
  parameters: Record<string, unknown>
  /** The result filters' chosen values; filters not named keep their default. */
  filters: FilterSelection
  /** The pixel size to draw at; by default the widget's size on the page's grid, as the page draws it. */
  size: { width: number; height: number } | null
}

const LIMIT = 65_536
const SIZE = { min: 40, max: 4000 }

function jsonObject(text: string | undefined, what: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  if (text.length > LIMIT) throw new BadRequest(`${what} is too long.`)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new BadRequest(`${what} must be a JSON object.`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BadRequest(`${what} must be a JSON object.`)
  return parsed as Record<string, unknown>
}

/**
 * The drawing call's address: `parameters` (a JSON object of values; without it, the `p_<name>` arguments),
 * `filters` (a JSON object of value lists by filter name), `width` and `height` (together, whole pixels).
 */
export function drawingInput(query: Record<string, string>): DrawingInput {
  const fromUrl = Object.fromEntries(Object.entries(query).filter(([key]) => key.startsWith('p_') && key.length > 2).map(([key, value]) => [key.slice(2), value]))
  const parameters = jsonObject(query.parameters, 'parameters') ?? fromUrl
  const filters = jsonObject(query.filters, 'filters') ?? {}
  for (const [name, values] of Object.entries(filters)) {
    if (!Array.isArray(values)) throw new BadRequest(`filters.${name} must be a list of values.`)
  }
  let size: DrawingInput['size'] = null
  if (query.width !== undefined || query.height !== undefined) {
    const [width, height] = [Number(query.width), Number(query.height)]
    const fits = (n: number) => Number.isInteger(n) && n >= SIZE.min && n <= SIZE.max
    if (!fits(width) || !fits(height)) throw new BadRequest(`width and height must be whole numbers of pixels from ${SIZE.min} to ${SIZE.max}.`)
    size = { width, height }
  }
  return { parameters, filters: filters as FilterSelection, size }
}

/**
 * The latest stored result of a saved query run with these values (its parameters filled as a run fills them, the
 * auto-limit applied): what a run with `max_age` -1 would answer at once, found without running anything. Undefined
 * when those values never ran, the query has no source, or the result read a source `reader` may not read (the
 * run the browser then asks for says which); bad values are a 400 as in a run.
 */
export async function storedResultFor(
  deps: Deps, reader: Principal, orgId: number, query: Pick<QueryRow, 'query' | 'data_source_id' | 'options'>, values: Record<string, unknown>,
): Promise<ResultRow | undefined> {
  const ds = query.data_source_id == null ? undefined : await findDataSource(deps.sql, orgId, query.data_source_id)
  if (!ds) return undefined
  const text = await fillParameters(deps, orgId, query.query, (query.options.parameters ?? []) as ParameterDefinition[], values)
  const result = await findFresh(deps.sql, ds.id, queryHash(textToRun(ds, text, !!query.options.apply_auto_limit)), -1)
  return result && (await mayReadSourcesOf(deps.sql, reader, result)) ? result : undefined
}

/**
 * `GET api/widgets/{id}/drawing`: the widget's result for these parameter values (the latest stored for the text
 * they make, as a run with `max_age` -1 finds it) drawn by the server's renderer, so a dashboard redraws a widget
 * after Apply, Refresh or a filter choice with markup and never needs the chart code in the browser. Nothing runs.
 */
export async function widgetDrawing(deps: Deps, caller: WidgetResultsCaller, widgetId: number, input: DrawingInput, formats: DateFormats): Promise<WidgetDrawing> {
  const { widget, visualization, query, reader, filtersMerged } = await openWidgetResults(deps, caller, widgetId)
  const none: WidgetDrawing = { drawing: null, note: 'never-run', query_result: null, filters: [], filter_selection: {} }
  const result = await storedResultFor(deps, reader, query.org_id, query, input.parameters)
  if (!result) return none
  const place = placeOf(widget.options, false)
  const size = input.size ?? ((filters: Filter[]) => drawingSize(place, { filterBar: filters.length > 0 && !filtersMerged }))
  const drawn = await drawResult(deps, resultReader(deps, query.org_id, reader), visualization, result.id, size,
    (filters) => Object.fromEntries(filters.flatMap((f) => (input.filters[f.name] ? [[f.name, input.filters[f.name]]] : []))), formats)
  return {
    drawing: drawn.html, note: drawn.note, query_result: { id: result.id, retrieved_at: iso(result.retrieved_at) },
    filters: drawn.filters, filter_selection: drawn.selection,
  }
}
