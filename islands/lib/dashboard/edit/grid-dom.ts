/**
 * Edit mode works on the widgets the server drew: their elements move into the drag-and-resize grid and back, so no
 * chart is drawn twice and what an editor arranges is exactly what viewers see.
 */
import { placeOf, type WidgetPlace } from '../../../../src/shared/dashboard-grid.ts'

/** The grid's geometry (spec 1 §9): 6 columns, a row every 50 px (34 px of row and a 16 px gap, as the view page). */
export const GRID = { columns: 6, rowHeight: 34, gap: 16, maxRows: 1000, narrow: '(max-width: 768px)' } as const

/** A place in the grid; `autoHeight` false once a widget was resized by hand (saved with its position). */
export type Place = WidgetPlace & { autoHeight?: boolean }
export { placeOf }

/** What the view page shows in place of the grid: its widgets' section, or the empty-dashboard note. */
export function viewGrid(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-dashboard-grid]') ?? document.querySelector<HTMLElement>('[data-dashboard-empty]')
}

/** Each widget's outermost element in the view grid (the widget itself, or the island around it), by widget id. */
export function widgetCells(grid: HTMLElement): Map<number, HTMLElement> {
  const cells = new Map<number, HTMLElement>()
  for (const widget of grid.querySelectorAll<HTMLElement>('[data-widget-id]')) {
    let cell: HTMLElement = widget
    while (cell.parentElement && cell.parentElement !== grid) cell = cell.parentElement
    cells.set(Number(widget.dataset.widgetId), cell)
  }
  return cells
}

/** Put the widgets back into the view grid in reading order, each at its new place (the custom properties the stylesheet reads). */
export function restoreCells(grid: HTMLElement, cells: Map<number, HTMLElement>, places: Map<number, Place>) {
  const order = [...cells.keys()].sort((a, b) => {
    const p = places.get(a), q = places.get(b)
    return p && q ? p.row - q.row || p.col - q.col || a - b : a - b
  })
  for (const id of order) {
    const cell = cells.get(id)!
    const place = places.get(id)
    const widget = cell.matches('[data-widget-id]') ? cell : cell.querySelector<HTMLElement>('[data-widget-id]')
    if (widget && place) {
      widget.style.setProperty('--col', `${place.col + 1} / span ${place.sizeX}`)
      widget.style.setProperty('--row', `${place.row + 1} / span ${place.sizeY}`)
      widget.style.setProperty('--height', `${place.sizeY * (GRID.rowHeight + GRID.gap)}px`)
      // the place the view page's auto-height layout starts from
      widget.dataset.place = JSON.stringify({ col: place.col, row: place.row, sizeX: place.sizeX, sizeY: place.sizeY })
    }
    grid.append(cell)
  }
}
