/**
 * The dashboard grid as both the server's drawing and the browser's edit mode read it (spec 1 §9): 6 columns, widgets
 * 1 to 6 columns wide and up to 1,000 rows high. One reading of a stored position, so what an editor arranges is
 * exactly what viewers see.
 */
export const DASHBOARD_GRID = { columns: 6, maxRows: 1000, maxRow: 100_000 } as const

export interface WidgetPlace {
  col: number
  row: number
  sizeX: number
  sizeY: number
}

const int = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback)

/** A widget's stored position read defensively: clients of the established tool may have written anything there. */
export function placeOf(options: Record<string, unknown>, isText: boolean): WidgetPlace {
  const p = (options.position && typeof options.position === 'object' ? options.position : {}) as Record<string, unknown>
  const sizeX = Math.min(DASHBOARD_GRID.columns, Math.max(1, int(p.sizeX, 3)))
  const col = Math.min(DASHBOARD_GRID.columns - sizeX, Math.max(0, int(p.col, 0)))
  const rawY = int(p.sizeY, isText ? 3 : 8)
  return { col, row: Math.max(0, int(p.row, 0)), sizeX, sizeY: rawY > 0 ? Math.min(DASHBOARD_GRID.maxRows, rawY) : isText ? 3 : 8 }
}

/**
 * Whether a widget's height follows its content (spec 1 §9 `position.autoHeight`; a negative sizeY, as the
 * established tool writes it, means the same). Its stored sizeY is then the last height it had, drawn until measured.
 */
export function isAutoHeight(options: Record<string, unknown>): boolean {
  const p = (options.position && typeof options.position === 'object' ? options.position : {}) as Record<string, unknown>
  return p.autoHeight === true || (typeof p.sizeY === 'number' && p.sizeY < 0)
}

/**
 * The places once some widgets took new heights, moved up as far as they go in reading order (as edit mode's grid
 * compacts them): a widget that grew pushes the ones below it down, one that shrank lets them rise.
 */
export function compactPlaces(places: ReadonlyMap<number, WidgetPlace>, heights: ReadonlyMap<number, number>): Map<number, WidgetPlace> {
  const order = [...places].sort(([a, p], [b, q]) => p.row - q.row || p.col - q.col || a - b)
  const placed: WidgetPlace[] = []
  const out = new Map<number, WidgetPlace>()
  for (const [id, p] of order) {
    const sizeY = heights.get(id) ?? p.sizeY
    const row = placed.reduce((top, o) => (o.col < p.col + p.sizeX && p.col < o.col + o.sizeX ? Math.max(top, o.row + o.sizeY) : top), 0)
    const next = { ...p, row, sizeY }
    placed.push(next)
    out.set(id, next)
  }
  return out
}

/**
 * Where a new widget `sizeX` columns wide goes (spec 2 §4, "the lowest free position"): for each left column where
 * it fits, the row just below the lowest widget in the columns it would cover; the smallest such row wins, the
 * leftmost on ties, so a half-width widget goes beside a half-width one rather than under it. The one rule for every
 * way a widget is added (the API without a position, edit mode's Add Widget and Add Textbox, Add to Dashboard).
 */
export function lowestFreePlace(existing: readonly WidgetPlace[], sizeX: number): { col: number; row: number } {
  const width = Math.min(DASHBOARD_GRID.columns, Math.max(1, Math.round(sizeX)))
  let best = { col: 0, row: Number.POSITIVE_INFINITY }
  for (let col = 0; col + width <= DASHBOARD_GRID.columns; col++) {
    const row = existing.reduce((bottom, p) => (p.col < col + width && col < p.col + p.sizeX ? Math.max(bottom, p.row + p.sizeY) : bottom), 0)
    if (row < best.row) best = { col, row }
  }
  return { col: best.col, row: Math.min(best.row, DASHBOARD_GRID.maxRow) }
}
