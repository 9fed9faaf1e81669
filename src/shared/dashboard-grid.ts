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
