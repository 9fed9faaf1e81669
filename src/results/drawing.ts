import { perDatabase, SharedCache, type Sql } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { openResult, resultRowObjects } from './service.ts'
import { DASHBOARD_GRID as GRID, type WidgetPlace } from '../shared/dashboard-grid.ts'
import type { FilterSelection } from '../visualizations/filter-choices.ts'
import { deriveFilters, type Filter } from '../visualizations/filters.ts'
import { renderVisualizationSvg } from '../visualizations/render.server.ts'
import type { DrawingNote } from '../visualizations/widget-drawing.ts'
import type { DateFormats } from '../shared/time.ts'

/** The grid as the page draws it (spec 1 §9): rows of 50 px on a desk-sized width, a widget's header above its chart. */
export const GRID_VIEW = { rowHeight: 50, width: 1200, gap: 16, headerHeight: 56, maxRowsDrawn: 5000 } as const

export type { DrawingNote }

export interface DrawnResult {
  html: string | null
  note: DrawingNote | null
  /** The result filters its rows define (empty for most). */
  filters: Filter[]
}

export interface DrawingSize {
  width: number
  height: number
}

/**
 * Drawings by visualization (as last saved), result, size, filter choice and the organization's date formats. A stored result never changes, so a
 * drawing is exact for as long as it is kept: the hundredth viewer of a morning dashboard gets markup, not a new
 * drawing. Entries are made only after the caller was found to see the widget, and say nothing but what it shows; a
 * cached drawing is served without reading its result again, so every caller decides first that its viewer may read
 * that result (a Query Results result: every source it read, src/results/source-access.ts). With them, the filters
 * each stored result defines (as JSON), so a widget drawn from the cache still offers its filters. Kept per database,
 * as result ids are: one process serving two (the tests do) never answers one's result from the other's drawing.
 */
const drawingCaches = perDatabase(() => ({
  drawings: new SharedCache<string>(15 * 60_000, 500),
  filtersByResult: new SharedCache<string>(15 * 60_000, 500),
}))

/** The bar of result filters a card shows above its chart (islands/DashboardWidget.tsx: a label over a select) unless the dashboard merges them. */
export const FILTER_BAR_HEIGHT = 80

/**
 * The pixel size a chart is drawn at on the page: its share of the grid's width, its rows' height less the header and,
 * with `filterBar`, less the card's filter bar, so the plot and its axes fit the room left.
 */
export function drawingSize(place: WidgetPlace, o: { filterBar?: boolean } = {}): DrawingSize {
  const width = Math.round((place.sizeX / GRID.columns) * GRID_VIEW.width) - GRID_VIEW.gap * 2
  const height = Math.max(80, place.sizeY * GRID_VIEW.rowHeight - GRID_VIEW.headerHeight - GRID_VIEW.gap - (o.filterBar ? FILTER_BAR_HEIGHT : 0))
  return { width, height }
}

type Rows = { columns: { name: string; type: string | null }[]; rows: Record<string, unknown>[] } | null

/**
 * Reads each stored result once however many widgets of one page show it, as `reader` may read it (a result they may
 * not read fails); null when it is too large to draw.
 */
export function resultReader(deps: Deps, orgId: number, reader: Principal) {
  const byResult = new Map<number, Promise<Rows>>()
  return (id: number): Promise<Rows> => {
    if (!byResult.has(id)) {
      byResult.set(id, openResult(deps, reader, orgId, id).then(async (stored) =>
        stored.row_count > GRID_VIEW.maxRowsDrawn ? null : { columns: stored.columns, rows: await resultRowObjects(deps, stored) }))
    }
    return byResult.get(id)!
  }
}

/**
 * A visualization drawn from one stored result by the server's renderer: the page's drawing of a widget and the
 * drawing call's (`GET api/widgets/{id}/drawing`) are this one, so a redrawn widget looks exactly as the page drew it.
 * `selection(filters)` gives the filter choice once the result's filters are known (the address's, or the caller's);
 * tables write dates in the organization's `formats`, as the query page does.
 */
export async function drawResult(
  deps: { sql: Sql }, read: (id: number) => Promise<Rows>,
  vis: { id: number; type: string; options: unknown; updated_at: unknown },
  resultId: number, sized: DrawingSize | ((filters: Filter[]) => DrawingSize), selection: (filters: Filter[]) => FilterSelection, formats: DateFormats,
): Promise<DrawnResult & { selection: FilterSelection }> {
  const { drawings, filtersByResult } = drawingCaches(deps.sql)
  const cachedFilters = filtersByResult.get(String(resultId))
  let data = cachedFilters === undefined ? await read(resultId).catch(() => null) : undefined
  if (data === null) return { html: null, note: 'too-large', filters: [], selection: {} }
  const filters: Filter[] = data ? deriveFilters(data.columns, data.rows) : JSON.parse(cachedFilters!)
  if (data) filtersByResult.set(String(resultId), JSON.stringify(filters))
  // the choice is part of the drawing: another choice of the same result is another drawing
  const chosen = selection(filters)
  // the room for the chart may depend on the filters (a card's filter bar takes some)
  const size = typeof sized === 'function' ? sized(filters) : sized
  const key = `${vis.id}:${String(vis.updated_at)}:${resultId}:${size.width}x${size.height}:${JSON.stringify(chosen)}:${formats.date} ${formats.time}`
  const drawn = drawings.get(key)
  if (drawn !== undefined) return { html: drawn, note: null, filters, selection: chosen }
  data ??= await read(resultId).catch(() => null)
  if (!data) return { html: null, note: 'too-large', filters, selection: chosen }
  try {
    const html = renderVisualizationSvg({ type: vis.type, options: vis.options }, data, size, { filters: chosen, dateFormats: formats })
    drawings.set(key, html)
    return { html, note: null, filters, selection: chosen }
  } catch {
    return { html: null, note: 'cannot-draw', filters, selection: chosen }
  }
}
