import { describe, expect, it } from 'vitest'
import { CounterOptionsSchema } from './counter/options.ts'
import { formatCounterNumber, prepareCounter } from './counter/prepare.ts'
import { DetailsOptionsSchema } from './details/options.ts'
import { prepareDetails } from './details/prepare.ts'
import { FunnelOptionsSchema } from './funnel/options.ts'
import { prepareFunnel } from './funnel/prepare.ts'

const sales = {
  columns: [{ name: 'day', type: 'date' }, { name: 'revenue', type: 'float' }, { name: 'goal', type: 'float' }],
  rows: [{ day: '2024-01-01', revenue: 1200.5, goal: 1000 }, { day: '2024-01-02', revenue: null, goal: 0 }, { day: '2024-01-03', revenue: 900, goal: 1000 }],
}

describe('prepareCounter', () => {
  it('picks the value by row and column, with target and trend', () => {
    const d = prepareCounter(CounterOptionsSchema.parse({ counterColName: 'revenue', targetColName: 'goal', stringPrefix: '$', stringDecimal: 1 }), sales)
    expect(d.display).toBe('$1,200.5')
    expect(d.target?.display).toBe('1,000')
    expect(d.trend).toEqual({ direction: 'up', display: '+20.1%' })
    expect(d.label).toBe('revenue')
  })

  it('counts rows from the end with negative numbers, and survives nulls and zero targets', () => {
    const last = prepareCounter(CounterOptionsSchema.parse({ counterColName: 'revenue', rowNumber: -1, targetColName: 'goal', targetRowNumber: -1 }), sales)
    expect([last.value, last.trend?.direction]).toEqual([900, 'down'])
    const empty = prepareCounter(CounterOptionsSchema.parse({ counterColName: 'revenue', rowNumber: 2, targetColName: 'goal', targetRowNumber: 2 }), sales)
    expect([empty.value, empty.display, empty.trend]).toEqual([null, '', null])
  })

  it('counts rows when asked', () => {
    expect(prepareCounter(CounterOptionsSchema.parse({ countRow: true }), sales).display).toBe('3')
  })

  it('formats with custom separators', () => {
    const o = CounterOptionsSchema.parse({ stringDecimal: 2, stringDecChar: ',', stringThouSep: '.', stringSuffix: ' €' })
    expect(formatCounterNumber(-1234567.891, o)).toBe('-1.234.567,89 €')
  })
})

describe('prepareDetails', () => {
  it('shows the row the viewer is on, formatted and titled', () => {
    const o = DetailsOptionsSchema.parse({ columns: [{ name: 'goal', visible: false }, { name: 'revenue', title: 'Revenue', numberFormat: '$0,0' }] })
    const d = prepareDetails(o, sales, { page: 3 })
    expect(d.fields.map((f) => [f.title, f.html])).toEqual([['Revenue', '$900'], ['day', '2024-01-03']])
    expect([d.row, d.rows]).toEqual([3, 3])
    expect(prepareDetails(o, sales, { page: 99 }).row).toBe(3)
    expect(prepareDetails(o, { columns: sales.columns, rows: [] }).fields).toEqual([])
  })
})

describe('prepareFunnel', () => {
  const data = { columns: [{ name: 'step' }, { name: 'users', type: 'integer' }, { name: 'order', type: 'integer' }], rows: [
    { step: 'Cart', users: 300, order: 3 }, { step: 'Visit', users: 1000, order: 1 }, { step: 'View', users: 600, order: 2 }, { step: 'Broken', users: null, order: 4 },
  ] }

  it('sorts by value and computes shares of the first and previous steps', () => {
    const d = prepareFunnel(FunnelOptionsSchema.parse({ stepCol: { colName: 'step' }, valueCol: { colName: 'users' } }), data)
    expect(d.steps.map((s) => [s.step, s.ofFirst, s.ofPrevious])).toEqual([['Visit', 1, 1], ['View', 0.6, 0.6], ['Cart', 0.3, 0.5]])
  })

  it('keeps a sort-key order and the items limit', () => {
    const d = prepareFunnel(FunnelOptionsSchema.parse({ stepCol: { colName: 'step' }, valueCol: { colName: 'users' }, autoSort: false, sortKeyCol: { colName: 'order', reverse: true }, itemsLimit: 2 }), data)
    expect(d.steps.map((s) => s.step)).toEqual(['Cart', 'View'])
    expect(d.steps[1].ofPrevious).toBe(2)
  })
})
