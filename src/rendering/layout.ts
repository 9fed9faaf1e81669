import { DASHBOARD_GRID } from '../shared/dashboard-grid.ts'
import type { DrawnWidget } from './types.ts'

/** The page's grid in pixels (src/results/drawing.ts GRID_VIEW): 1,200 wide, rows of 50, cards 16 apart. */
export const GRID_PX = { width: 1200, rowHeight: 50, gap: 16, header: 40 } as const

/** A widget's card in grid pixels, from the dashboard's top left. */
export interface Box {
  widget: DrawnWidget
  x: number
  y: number
  width: number
  height: number
}

/** Every widget's card where the page puts it; in reading order (row, then column). */
export function gridBoxes(widgets: readonly DrawnWidget[]): Box[] {
  const column = GRID_PX.width / DASHBOARD_GRID.columns
  return widgets
    .map((widget) => ({
      widget,
      x: widget.position.col * column,
      y: widget.position.row * GRID_PX.rowHeight,
      width: widget.position.sizeX * column,
      height: widget.position.sizeY * GRID_PX.rowHeight,
    }))
    .sort((a, b) => a.y - b.y || a.x - b.x)
}

/**
 * The cards split into pages of `pageHeight` grid pixels, each card whole on one page: a page ends before the first
 * card that would run past its bottom, and the next page starts at that card's top. A card taller than a page is
 * shortened to one. Each page's cards are given from that page's top.
 */
export function paginate(boxes: readonly Box[], pageHeight: number): Box[][] {
  const pages: Box[][] = []
  let top = 0
  let page: Box[] = []
  for (const box of boxes) {
    const height = Math.min(box.height, pageHeight)
    if (page.length && box.y + height - top > pageHeight) {
      pages.push(page)
      page = []
    }
    if (!page.length) top = box.y
    page.push({ ...box, y: box.y - top, height })
  }
  if (page.length) pages.push(page)
  return pages
}
