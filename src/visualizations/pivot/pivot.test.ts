import { describe, expect, it } from 'vitest'
import { PivotOptionsSchema } from './options.ts'
import { preparePivot } from './prepare.ts'

const data = {
  columns: [{ name: 'region' }, { name: 'year' }, { name: 'amount', type: 'float' }],
  rows: [
    { region: 'EU', year: '2023', amount: 10 }, { region: 'EU', year: '2024', amount: 20 }, { region: 'EU', year: '2024', amount: 40 },
    { region: 'NA', year: '2023', amount: 5 }, { region: 'NA', year: '2023', amount: null }, { region: 'APAC', year: '2024', amount: 7 },
  ],
}

const pivot = (o: Record<string, unknown>) => preparePivot(PivotOptionsSchema.parse({ rows: ['region'], cols: ['year'], vals: ['amount'], ...o }), data)

describe('preparePivot', () => {
  it('sums cells, rows, columns and the grand total', () => {
    const p = pivot({ aggregatorName: 'Sum' })
    expect(p.rowKeys).toEqual([['APAC'], ['EU'], ['NA']])
    expect(p.colKeys).toEqual([['2023'], ['2024']])
    expect(p.cells).toEqual([[null, 7], [10, 60], [5, null]])
    expect(p.rowTotals).toEqual([7, 70, 5])
    expect(p.colTotals).toEqual([15, 67])
    expect(p.grandTotal).toBe(82)
  })

  it('counts rows, nulls included', () => {
    const p = pivot({ aggregatorName: 'Count' })
    expect(p.cells).toEqual([[null, 1], [1, 2], [2, null]])
    expect(p.grandTotal).toBe(6)
  })

  it('averages the rows, not the cells, in totals', () => {
    const p = pivot({ aggregatorName: 'average' })
    expect(p.cells[1]).toEqual([10, 30])
    expect(p.rowTotals[1]).toBeCloseTo(70 / 3)
    expect(p.grandTotal).toBeCloseTo(82 / 5)
  })

  it('takes minimum and maximum, ignoring nulls', () => {
    expect(pivot({ aggregatorName: 'Minimum' }).colTotals).toEqual([5, 7])
    expect(pivot({ aggregatorName: 'max' }).grandTotal).toBe(40)
  })

  it('counts when no value column exists and works without groups', () => {
    const p = preparePivot(PivotOptionsSchema.parse({ aggregatorName: 'Sum', vals: ['missing'] }), data)
    expect([p.aggregation, p.rowKeys, p.colKeys, p.cells]).toEqual(['count', [[]], [[]], [[6]]])
  })
})
