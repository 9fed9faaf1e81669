import { describe, expect, it } from 'vitest'
import { bandColor } from '../theme.ts'
import { CohortOptionsSchema } from './options.ts'
import { intervalsBetween, prepareCohort } from './prepare.ts'

const data = {
  columns: [{ name: 'date', type: 'date' }, { name: 'day_number', type: 'integer' }, { name: 'total', type: 'integer' }, { name: 'value', type: 'integer' }],
  rows: [
    { date: '2024-01-01', day_number: 0, total: 100, value: 100 }, { date: '2024-01-01', day_number: 2, total: 100, value: 30 },
    { date: '2024-01-02', day_number: 0, total: 50, value: 50 },
    { date: '2024-01-03', day_number: 0, total: 0, value: 0 },
  ],
}

describe('prepareCohort', () => {
  it('fills stages a cohort had time to reach with zero in diagonal mode', () => {
    const c = prepareCohort(CohortOptionsSchema.parse({}), data)
    expect(c.stages).toEqual([0, 1, 2])
    expect(c.cohorts.map((r) => r.cells.map((cell) => cell?.share ?? null))).toEqual([[1, 0, 0.3], [1, 0, null], [null, null, null]])
    expect(c.cohorts[2].cells[0]).toEqual({ value: 0, share: null })
  })

  it('shows data as it is in simple mode', () => {
    const c = prepareCohort(CohortOptionsSchema.parse({ mode: 'simple' }), data)
    expect(c.stages).toEqual([0, 2])
    expect(c.cohorts[0].cells.map((cell) => cell?.value)).toEqual([100, 30])
    expect(c.cohorts[1].cells[1]).toBeNull()
  })

  it('counts intervals by day, week and calendar month', () => {
    const a = Date.UTC(2024, 0, 31)
    const b = Date.UTC(2024, 2, 1)
    expect([intervalsBetween(a, b, 'daily'), intervalsBetween(a, b, 'weekly'), intervalsBetween(a, b, 'monthly')]).toEqual([30, 4, 2])
  })

  it('shades shares in bands', () => {
    expect(bandColor(0, '#000000', '#ffffff', 5)).toBe('#000000')
    expect(bandColor(1, '#000000', '#ffffff', 5)).toBe('#ffffff')
    expect(bandColor(0.5, '#000000', '#ffffff', 5)).toBe('#808080')
  })
})
