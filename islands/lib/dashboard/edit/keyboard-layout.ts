import { moveElement, verticalCompactor, type Layout } from 'react-grid-layout'
import { GRID } from './grid-dom.ts'

/** What a key does to the focused widget: arrows move it one cell, Shift+arrows resize it by one cell. */
const STEPS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }

/**
 * The layout after a key on widget `id`, moved or resized as a drag or a resize by the grid library would (its own
 * `moveElement` pushes the widgets in the way, then the vertical compaction edit mode uses); null for other keys or
 * a step that goes nowhere (the grid's edge, the size bounds).
 */
export function keyLayout(layout: Layout, id: string, key: string, resize: boolean, cols: number = GRID.columns): { layout: Layout; resized: boolean } | null {
  const step = STEPS[key]
  const item = layout.find((l) => l.i === id)
  if (!step || !item) return null
  const [dx, dy] = step
  if (resize) {
    const w = Math.min(cols - item.x, Math.max(1, item.w + dx))
    const h = Math.min(GRID.maxRows, Math.max(1, item.h + dy))
    if (w === item.w && h === item.h) return null
    const grown = layout.map((l) => (l.i === id ? { ...l, w, h } : l))
    return { layout: verticalCompactor.compact(grown, cols), resized: true }
  }
  const x = Math.min(cols - item.w, Math.max(0, item.x + dx))
  if (dx !== 0) return x === item.x ? null : { layout: moveTo(layout, id, x, item.y, cols), resized: false }
  // a row up or down may be undone by the compaction (the widget rises back, or the one it passes does): go on a row
  // at a time until the widget lands elsewhere, as a drag that far would
  for (let y = item.y + dy; y >= 0 && Math.abs(y - item.y) <= GRID.maxRows; y += dy) {
    const next = moveTo(layout, id, item.x, y, cols)
    const landed = next.find((l) => l.i === id)!
    if (landed.y !== item.y) return { layout: next, resized: false }
  }
  return null
}

function moveTo(layout: Layout, id: string, x: number, y: number, cols: number): Layout {
  const copy = layout.map((l) => ({ ...l }))
  return verticalCompactor.compact(moveElement(copy, copy.find((l) => l.i === id)!, x, y, true, false, 'vertical', cols), cols)
}
