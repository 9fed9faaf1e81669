import { ORDERS_BY_DAY } from '../helpers/orders-by-day.ts'
import { describe, expect, it } from 'vitest'
import { columnsWithRole, withRole } from '../../islands/lib/visualization-editor/options/chart-mapping.ts'
import { schemaFields } from '../../islands/lib/visualization-editor/options/schema-fields.ts'
import { move, tableColumns, withOrder } from '../../islands/lib/visualization-editor/options/table-columns.ts'
import { defaultOptions, initialDraft, isChanged, saveRequest, setIn, switchType } from '../../islands/lib/visualization-editor/model.ts'
import { FunnelOptionsSchema } from '../../src/visualizations/funnel/options.ts'

/** The Visualization Editor's pure helpers (islands/lib/visualization-editor): its dialog is tested in test/browser. */

const RESULT = ORDERS_BY_DAY

describe('helpers', () => {
  it('starts a chart with the first column along x and the numeric columns as series', () => {
    expect(defaultOptions('CHART', RESULT)).toEqual({ globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y', revenue: 'y' } })
    expect(defaultOptions('COUNTER', RESULT)).toEqual({ counterColName: 'orders', rowNumber: 1 })
    expect(defaultOptions('PIVOT', RESULT)).toEqual({ rows: ['region'], vals: ['orders'], aggregatorName: 'Sum' })
    // Untyped columns are judged by their cells.
    expect(defaultOptions('CHART', { columns: [{ name: 'k' }, { name: 'v' }], rows: [{ k: 'a', v: 1 }] }).columnMapping).toEqual({ k: 'x', v: 'y' })
    expect(initialDraft(null, RESULT).name).toBe('Chart')
  })

  it('renames on a type switch only while the name is the default one', () => {
    const chart = initialDraft(null, RESULT)
    expect(switchType(chart, 'COUNTER', RESULT).name).toBe('Counter')
    expect(switchType({ ...chart, name: 'Orders' }, 'COUNTER', RESULT).name).toBe('Orders')
  })

  it('sees a change in the name or options, whatever the key order', () => {
    const a = { type: 'CHART', name: 'Chart', options: { a: 1, b: { c: 2, d: 3 } } }
    expect(isChanged(a, { ...a, options: { b: { d: 3, c: 2 }, a: 1 } })).toBe(false)
    expect(isChanged(a, { ...a, name: 'Chart 2' })).toBe(true)
    expect(isChanged(a, { ...a, options: setIn(a.options, ['b', 'c'], 5) })).toBe(true)
  })

  it('updates nested options without touching the original, and removes cleared keys', () => {
    const options = { xAxis: { type: 'linear', title: { text: 'Day' } }, keep: true }
    expect(setIn(options, ['xAxis', 'title', 'text'], 'Date')).toEqual({ xAxis: { type: 'linear', title: { text: 'Date' } }, keep: true })
    expect(setIn(options, ['xAxis', 'type'], undefined)).toEqual({ xAxis: { title: { text: 'Day' } }, keep: true })
    expect(setIn({}, ['series', 'stacking'], 'stack')).toEqual({ series: { stacking: 'stack' } })
    expect(options.xAxis.title.text).toBe('Day')
  })

  it('gives each column one chart role at a time', () => {
    const mapping = { day: 'x', orders: 'y', revenue: 'y' }
    expect(columnsWithRole(mapping, 'y', ['day', 'revenue', 'orders'])).toEqual(['revenue', 'orders'])
    expect(withRole(mapping, 'x', ['orders'])).toEqual({ revenue: 'y', orders: 'x' })
    expect(withRole(mapping, 'y', ['revenue'])).toEqual({ day: 'x', revenue: 'y' })
  })

  it('lists table columns in their saved order, new ones after, and moves them', () => {
    const listed = tableColumns([{ name: 'revenue', order: 0, title: 'Revenue' }, { name: 'gone', order: 1 }], ['day', 'orders', 'revenue'])
    expect(listed.map((c) => c.name)).toEqual(['revenue', 'day', 'orders', 'gone'])
    expect(withOrder(move(listed, 0, 1)).map((c) => [c.name, c.order])).toEqual([['day', 0], ['revenue', 1], ['orders', 2], ['gone', 3]])
    expect(move(listed, 0, -1)).toEqual(listed)
  })

  it('reads option fields off a schema, with column pickers for column keys', () => {
    const fields = schemaFields(FunnelOptionsSchema)
    expect(fields.find((f) => f.path.join('.') === 'stepCol.colName')).toEqual({ path: ['stepCol', 'colName'], label: 'Step column', kind: 'column' })
    expect(fields.find((f) => f.path.join('.') === 'autoSort')?.kind).toBe('boolean')
    expect(fields.find((f) => f.path.join('.') === 'itemsLimit')?.kind).toBe('number')
  })

  it('builds the save request: query_id only for a new visualization, the default name for an empty one', () => {
    const draft = { type: 'COUNTER', name: ' ', options: { counterColName: 'orders' } }
    expect(saveRequest(draft, 3)).toEqual({ path: '/api/visualizations', body: { query_id: 3, type: 'COUNTER', name: 'Counter', options: { counterColName: 'orders' } } })
    expect(saveRequest({ ...draft, name: 'Orders' }, 3, 9).path).toBe('/api/visualizations/9')
  })
})
