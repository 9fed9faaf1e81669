import { describe, expect, it } from 'vitest'
import { lowestFreePlace, type WidgetPlace } from '../../../src/shared/dashboard-grid.ts'

const at = (col: number, row: number, sizeX: number, sizeY: number): WidgetPlace => ({ col, row, sizeX, sizeY })

describe('the lowest free position of a new widget', () => {
  it('is the top left corner of an empty dashboard', () => {
    expect(lowestFreePlace([], 3)).toEqual({ col: 0, row: 0 })
  })

  it('puts a half-width widget beside a half-width one, not under it', () => {
    expect(lowestFreePlace([at(0, 0, 3, 8)], 3)).toEqual({ col: 3, row: 0 })
  })

  it('goes under the shorter of two half-width widgets', () => {
    expect(lowestFreePlace([at(0, 0, 3, 8), at(3, 0, 3, 4)], 3)).toEqual({ col: 3, row: 4 })
  })

  it('takes the leftmost column on ties', () => {
    expect(lowestFreePlace([at(0, 0, 3, 5), at(3, 0, 3, 5)], 3)).toEqual({ col: 0, row: 5 })
  })

  it('puts a full-width widget below the lowest widget of all', () => {
    expect(lowestFreePlace([at(0, 0, 3, 8), at(3, 0, 3, 4)], 6)).toEqual({ col: 0, row: 8 })
  })

  it('finds a gap in the middle columns when only they fit', () => {
    expect(lowestFreePlace([at(0, 0, 2, 6), at(4, 0, 2, 6)], 2)).toEqual({ col: 2, row: 0 })
  })

  it('covers every column the widget needs: a wide widget does not slide under a tall neighbour', () => {
    expect(lowestFreePlace([at(0, 0, 2, 10), at(2, 0, 4, 3)], 4)).toEqual({ col: 2, row: 3 })
  })

  it('takes widths outside the grid as the nearest width that fits', () => {
    expect(lowestFreePlace([at(0, 0, 6, 2)], 9)).toEqual({ col: 0, row: 2 })
    expect(lowestFreePlace([at(0, 0, 5, 2)], 0)).toEqual({ col: 5, row: 0 })
  })
})
