import { describe, expect, it } from 'vitest'
import { compactPlaces, isAutoHeight } from './dashboard-grid.ts'

describe('auto-height widgets', () => {
  it('reads autoHeight, and a negative sizeY as the established tool writes it', () => {
    expect(isAutoHeight({ position: { autoHeight: true, sizeY: 4 } })).toBe(true)
    expect(isAutoHeight({ position: { sizeY: -1 } })).toBe(true)
    expect(isAutoHeight({ position: { autoHeight: false, sizeY: 4 } })).toBe(false)
    expect(isAutoHeight({})).toBe(false)
  })

  it('pushes the widgets below a grown one down, and lets them rise when it shrinks', () => {
    const places = new Map([
      [1, { col: 0, row: 0, sizeX: 3, sizeY: 4 }],
      [2, { col: 3, row: 0, sizeX: 3, sizeY: 2 }],
      [3, { col: 0, row: 4, sizeX: 6, sizeY: 3 }],
    ])
    expect(compactPlaces(places, new Map([[1, 7]])).get(3)).toEqual({ col: 0, row: 7, sizeX: 6, sizeY: 3 })
    const shrunk = compactPlaces(places, new Map([[1, 1]]))
    expect(shrunk.get(1)).toEqual({ col: 0, row: 0, sizeX: 3, sizeY: 1 })
    expect(shrunk.get(3)?.row).toBe(2)
    // widgets beside it do not move
    expect(shrunk.get(2)).toEqual({ col: 3, row: 0, sizeX: 3, sizeY: 2 })
  })
})
