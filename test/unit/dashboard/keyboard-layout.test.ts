import { describe, expect, it } from 'vitest'
import { keyLayout } from '../../../islands/lib/dashboard/edit/keyboard-layout.ts'

const layout = [
  { i: '1', x: 0, y: 0, w: 3, h: 4 },
  { i: '2', x: 3, y: 0, w: 3, h: 4 },
  { i: '3', x: 0, y: 4, w: 6, h: 2 },
]
const at = (l: readonly { i: string; x: number; y: number; w: number; h: number }[], id: string) => {
  const { x, y, w, h } = l.find((item) => item.i === id)!
  return { x, y, w, h }
}

describe('moving a widget by keyboard', () => {
  it('moves it one cell with an arrow, within the grid', () => {
    expect(at(keyLayout(layout, '1', 'ArrowRight', false)!.layout, '1')).toMatchObject({ x: 1, y: 0 })
    expect(keyLayout(layout, '1', 'ArrowLeft', false)).toBeNull()
    expect(keyLayout(layout, '2', 'ArrowRight', false)).toBeNull()
    expect(keyLayout(layout, '1', 'Enter', false)).toBeNull()
  })

  it('moves it past the widget above or below, as a drag that far would', () => {
    const up = keyLayout(layout, '3', 'ArrowUp', false)!.layout
    expect(at(up, '3').y).toBe(0)
    expect(at(up, '1').y).toBe(2)
    const down = keyLayout(layout, '1', 'ArrowDown', false)!.layout
    expect(at(down, '3').y).toBe(4)
    expect(at(down, '1').y).toBe(6)
    // the last widget has nowhere lower to go
    expect(keyLayout(down, '1', 'ArrowDown', false)).toBeNull()
  })

  it('resizes it one cell with Shift+arrows, pushing the widgets below', () => {
    const taller = keyLayout(layout, '1', 'ArrowDown', true)!
    expect(taller.resized).toBe(true)
    expect(at(taller.layout, '1')).toMatchObject({ w: 3, h: 5 })
    expect(at(taller.layout, '3').y).toBe(5)
    expect(at(keyLayout(layout, '1', 'ArrowLeft', true)!.layout, '1').w).toBe(2)
    // no wider than the grid from where it is, no smaller than a cell
    expect(keyLayout(layout, '2', 'ArrowRight', true)).toBeNull()
    expect(keyLayout([{ i: '9', x: 0, y: 0, w: 1, h: 1 }], '9', 'ArrowUp', true)).toBeNull()
  })
})
