import type { Deps } from '../deps.ts'
import { getDashboardRow, dashboardView, type WidgetView } from '../dashboards/index.ts'
import { NotFound } from '../errors.ts'
import type { Principal } from '../permissions/index.ts'
import { getAccessibleQuery, findVisualization } from '../queries/index.ts'
import { drawingSize, drawResult, resultReader, findResult } from '../results/index.ts'
import { DEFAULT_SETTINGS } from '../settings/index.ts'
import { requireAllowed } from '../permissions/index.ts'
import { dashboardTexts } from '../shared/dashboard-texts.ts'
import { dateFormatsOf, iso, type DateFormats } from '../shared/time.ts'
import { selectionFromSearch } from '../visualizations/filter-choices.ts'
import { drawingSearch } from './options.ts'
import { failedWidgets } from './failures.ts'
import { refreshStale, type RunFailures } from './refresh.ts'
import { visualizationResult } from './visualization-result.ts'
import type { DrawnDashboard, DrawnWidget, DrawOptions, RenderDeps } from './types.ts'

/** The size a lone visualization is drawn at: a half-width widget of the default height, as on a dashboard. */
export const VISUALIZATION_PLACE = { col: 0, row: 0, sizeX: 3, sizeY: 8 }

export const drawTexts = {
  restricted: dashboardTexts.restricted,
  neverRun: 'This query has not run yet.',
  notRunForValues: 'This query has not run with these parameter values yet.',
  tooLarge: 'The result is too large to draw.',
  cannotDraw: 'This chart could not be drawn.',
}

// The dashboard services declare the web process's Deps but read only the database, the settings and the execution
// signals of it, which RenderDeps carries: a worker's drawing is the page's drawing.
const asDeps = (deps: RenderDeps) => deps as Deps

/**
 * A dashboard drawn for `viewer`, each widget once, as its page draws it (src/dashboards/view.ts): the same rights
 * (widgets whose query's source they may not read come back `restricted`, with nothing of their data), the same
 * parameter and filter values read from the address, the same sizes on the grid. With `refreshOlderThanSeconds`,
 * stale results are run first (src/rendering/refresh.ts) and a failed run's widget carries its error.
 */
export async function drawDashboard(deps: RenderDeps, viewer: Principal, dashboardId: number, opts: DrawOptions & { formats?: DateFormats } = {}): Promise<DrawnDashboard> {
  const row = await getDashboardRow(deps, viewer, dashboardId)
  const formats = opts.formats ?? dateFormatsOf(DEFAULT_SETTINGS)
  const search = drawingSearch(opts)
  let view = await dashboardView(asDeps(deps), viewer, row, formats, search)
  let failures: RunFailures = new Map()
  if (opts.refreshOlderThanSeconds !== undefined) {
    failures = await refreshStale(deps, viewer, view, search, opts.refreshOlderThanSeconds, opts.refreshWaitMs)
    // drawn again from the fresh results (a run that failed leaves its widget's stored result, shown with the error)
    view = await dashboardView(asDeps(deps), viewer, row, formats, search)
  }
  for (const [id, error] of await failedWidgets(deps, row.org_id, view, search)) if (!failures.has(id)) failures.set(id, error)
  const sources = new Map((view.dashboard.widgets ?? []).flatMap((w) =>
    'visualization' in w && w.visualization.query.data_source_id != null ? [[w.id, [w.visualization.query.data_source_id]] as const] : []))
  return {
    id: row.id, name: row.name, slug: row.slug,
    widgets: view.widgets.map((w) => drawnWidget(w, failures.get(w.id), sources.get(w.id))),
  }
}

function drawnWidget(w: WidgetView, failure: string | undefined, dataSourceIds: readonly number[] | undefined): DrawnWidget {
  const position = { col: w.place.col, row: w.place.row, sizeX: w.place.sizeX, sizeY: w.place.sizeY }
  if (w.kind === 'restricted') return { widgetId: w.id, title: '', kind: 'restricted', message: drawTexts.restricted, position }
  if (w.kind === 'text') return { widgetId: w.id, title: '', kind: 'text', html: w.html, position }
  const base = {
    widgetId: w.id, title: w.title || w.queryName, position, queryId: w.queryId, visualizationId: w.visualization.id,
    visualizationType: w.visualization.type, retrievedAt: w.retrievedAt, dataSourceIds: dataSourceIds ? [...dataSourceIds] : [],
    ...(w.resultId === null ? {} : { queryResultId: w.resultId }),
  }
  if (failure !== undefined) return { ...base, kind: 'error', message: failure }
  return { ...base, ...bodyOf(w.html, w.note) }
}

/** The drawing's kind: an <svg> is a chart (a picture); any other markup (counter, table, details) is HTML. */
function bodyOf(html: string | null, note: string | null): Pick<DrawnWidget, 'kind' | 'svg' | 'html' | 'message' | 'size'> {
  if (html === null) {
    if (note === 'cannot-draw') return { kind: 'error', message: drawTexts.cannotDraw }
    if (note === 'too-large') return { kind: 'empty', message: drawTexts.tooLarge }
    return { kind: 'empty', message: note === 'has-parameters' ? drawTexts.notRunForValues : drawTexts.neverRun }
  }
  const trimmed = html.trimStart()
  if (trimmed.startsWith('<svg')) return { kind: 'chart', svg: trimmed, size: svgSize(trimmed) }
  return { kind: 'html', html }
}

/** The width and height an <svg> declares (Plot writes both as attributes). */
export function svgSize(svg: string): { width: number; height: number } | undefined {
  const head = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? ''
  const width = Number(/\swidth="([\d.]+)"/.exec(head)?.[1])
  const height = Number(/\sheight="([\d.]+)"/.exec(head)?.[1])
  return width > 0 && height > 0 ? { width, height } : undefined
}

/**
 * One visualization drawn for `viewer` from its query's latest result (or the stored result of the values given), at
 * the size of a half-width dashboard widget. 404 when they may not see its query at all; `restricted` when its
 * latest result read a source they may not read.
 */
export async function drawVisualization(deps: RenderDeps, viewer: Principal, visualizationId: number, opts: DrawOptions & { formats?: DateFormats } = {}): Promise<DrawnWidget> {
  requireAllowed(viewer, 'view_query')
  const vis = await findVisualization(deps.sql, viewer.orgId, visualizationId)
  if (!vis) throw new NotFound()
  const query = await getAccessibleQuery(asDeps(deps), viewer, vis.query_id)
  const formats = opts.formats ?? dateFormatsOf(DEFAULT_SETTINGS)
  const search = drawingSearch(opts)
  const position = { ...VISUALIZATION_PLACE }
  const base = {
    widgetId: 0, title: vis.name || query.name, position, queryId: query.id, visualizationId: vis.id, visualizationType: vis.type,
    dataSourceIds: query.data_source_id == null ? [] : [query.data_source_id],
  }
  const { resultId, failure } = await visualizationResult(deps, viewer, query, search, opts)
  if (resultId === 'restricted') return { ...base, title: '', kind: 'restricted', message: drawTexts.restricted }
  if (resultId === null) return failure ? { ...base, kind: 'error', message: failure } : { ...base, kind: 'empty', message: drawTexts.neverRun }
  const result = await findResult(deps.sql, viewer.orgId, resultId)
  const drawn = await drawResult(deps, resultReader(asDeps(deps), viewer.orgId, viewer), vis, resultId, drawingSize(position), (filters) => selectionFromSearch(search, filters), formats)
  const body = failure ? { kind: 'error' as const, message: failure } : bodyOf(drawn.html, drawn.note)
  return { ...base, ...body, queryResultId: resultId, retrievedAt: result ? iso(result.retrieved_at) : null }
}
