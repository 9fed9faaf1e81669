import { afterEach, describe, expect, it } from 'vitest'
import { prepareCartesian, type CartesianData } from './cartesian-prepare.ts'
import { ChartOptionsSchema } from './options.ts'

const options = (o: Record<string, unknown>) => ChartOptionsSchema.parse(o)
const ys = (d: CartesianData, name: string) => d.series.find((s) => s.name === name)!.points.map((p) => p.y)
const originalTz = process.env.TZ
afterEach(() => {
  // assigning undefined would set the text "undefined"
  if (originalTz === undefined) delete process.env.TZ
  else process.env.TZ = originalTz
})

const sales = {
  columns: [{ name: 'month', type: 'date' }, { name: 'region', type: 'string' }, { name: 'revenue', type: 'float' }],
  rows: [
    { month: '2024-02-01', region: 'EU', revenue: 5 },
    { month: '2024-01-01', region: 'EU', revenue: 3 },
    { month: '2024-01-01', region: 'NA', revenue: 4 },
    { month: '2024-03-01', region: 'NA', revenue: null },
  ],
}
const mapping = { month: 'x', region: 'series', revenue: 'y' }

describe('prepareCartesian', () => {
  it('makes a series per series value, sorted by x, with missing values as zero', () => {
    const d = prepareCartesian(options({ columnMapping: mapping }), sales)
    expect(d.xKind).toBe('time')
    expect(d.series.map((s) => s.name)).toEqual(['EU', 'NA'])
    expect(d.series[0].points.map((p) => new Date(p.x).toISOString().slice(0, 10))).toEqual(['2024-01-01', '2024-02-01', '2024-03-01'])
    expect(ys(d, 'EU')).toEqual([3, 5, 0])
    expect(ys(d, 'NA')).toEqual([4, 0, 0])
  })

  it('leaves gaps instead when missing values are not zero', () => {
    const d = prepareCartesian(options({ columnMapping: mapping, missingValuesAsZero: false }), sales)
    expect(ys(d, 'EU')).toEqual([3, 5, null])
    expect(ys(d, 'NA')).toEqual([4, null, null])
  })

  it('stacks positives up and negatives down, separately', () => {
    const rows = [{ x: 'a', p: 2, q: -1, r: 3 }, { x: 'b', p: -2, q: -3, r: 1 }]
    const d = prepareCartesian(options({ columnMapping: { x: 'x', p: 'y', q: 'y', r: 'y' }, series: { stacking: 'stack' } }), { columns: [{ name: 'x' }, { name: 'p' }, { name: 'q' }, { name: 'r' }], rows })
    const bounds = d.series.map((s) => s.points.map((p) => [p.y1, p.y2]))
    expect(bounds).toEqual([[[0, 2], [0, -2]], [[0, -1], [-2, -5]], [[2, 5], [0, 1]]])
  })

  it('stacks to percentages of the absolute total', () => {
    const rows = [{ x: 'a', p: 1, q: 3 }, { x: 'b', p: 0, q: 0 }]
    const d = prepareCartesian(options({ columnMapping: { x: 'x', p: 'y', q: 'y' }, series: { stacking: 'percent' } }), { columns: [{ name: 'x' }, { name: 'p' }, { name: 'q' }], rows })
    expect(d.series.map((s) => s.points.map((p) => [p.y1, p.y2]))).toEqual([[[0, 25], [0, 0]], [[25, 100], [0, 0]]])
  })

  it('sorts categories naturally, or keeps row order when sortX is off', () => {
    const rows = [{ c: 'Item 10', v: 1 }, { c: 'Item 2', v: 2 }, { c: 'Item 1', v: 3 }]
    const data = { columns: [{ name: 'c', type: 'string' }, { name: 'v', type: 'integer' }], rows }
    expect(prepareCartesian(options({ columnMapping: { c: 'x', v: 'y' } }), data).categories).toEqual(['Item 1', 'Item 2', 'Item 10'])
    expect(prepareCartesian(options({ columnMapping: { c: 'x', v: 'y' }, sortX: false }), data).categories).toEqual(['Item 10', 'Item 2', 'Item 1'])
  })

  it('orders date categories by time, not by their labels', () => {
    const rows = [{ m: '2024-04-01', v: 1 }, { m: '2024-01-01', v: 2 }, { m: '2023-12-01', v: 3 }]
    const d = prepareCartesian(options({ columnMapping: { m: 'x', v: 'y' }, xAxis: { type: 'category' } }), { columns: [{ name: 'm', type: 'date' }, { name: 'v' }], rows })
    expect(d.categories).toEqual(['Dec 2023', 'Jan 2024', 'Apr 2024'])
  })

  it('places timestamps with offsets at the same instant in any process time zone', () => {
    const rows = [{ t: '2024-03-10T23:30:00-08:00', v: 1 }, { t: '2024-03-11T08:30:00+01:00', v: 2 }]
    const results = ['America/Los_Angeles', 'Asia/Tokyo'].map((tz) => {
      process.env.TZ = tz
      return prepareCartesian(options({ columnMapping: { t: 'x', v: 'y' } }), { columns: [{ name: 't', type: 'datetime' }, { name: 'v' }], rows })
    })
    expect(results[0]).toEqual(results[1])
    // both rows are the same instant, so they fall on one x and add up
    expect(results[0].series[0].points.map((p) => [new Date(p.x).toISOString(), p.y])).toEqual([['2024-03-11T07:30:00.000Z', 3]])
  })

  it('adds up the same x twice in a series, but keeps both scatter points', () => {
    const rows = [{ x: 1, y: 2 }, { x: 1, y: 3 }, { x: 2, y: null }]
    const data = { columns: [{ name: 'x', type: 'integer' }, { name: 'y', type: 'integer' }], rows }
    expect(ys(prepareCartesian(options({ globalSeriesType: 'line', columnMapping: { x: 'x', y: 'y' } }), data), 'y')).toEqual([5, 0])
    expect(ys(prepareCartesian(options({ globalSeriesType: 'scatter', columnMapping: { x: 'x', y: 'y' } }), data), 'y')).toEqual([2, 3, null])
  })

  it('infers a mapping when none is saved, leaving filter columns out', () => {
    const data = { columns: [{ name: 'kind::filter' }, { name: 'day', type: 'date' }, { name: 'a', type: 'float' }, { name: 'label' }, { name: 'b', type: 'integer' }], rows: [{ 'kind::filter': 'x', day: '2024-01-01', a: 1, label: 'q', b: 2 }] }
    const d = prepareCartesian(options({}), data)
    expect(d.xKind).toBe('time')
    expect(d.series.map((s) => s.name)).toEqual(['a', 'b'])
  })

  it('names, colours and orders series from seriesOptions; bar means horizontal', () => {
    const data = { columns: [{ name: 'c' }, { name: 'a', type: 'float' }, { name: 'b', type: 'float' }], rows: [{ c: 'x', a: 1, b: 2 }] }
    const d = prepareCartesian(options({
      globalSeriesType: 'bar', columnMapping: { c: 'x', a: 'y', b: 'y' },
      seriesOptions: { a: { name: 'Alpha', color: '#123456', zIndex: 2 }, b: { type: 'line', zIndex: 1 } },
    }), data)
    expect(d.horizontal).toBe(true)
    expect(d.series.map((s) => [s.name, s.type, s.color])).toEqual([['b', 'line', '#4e79a7'], ['Alpha', 'column', '#123456']])
  })

  it('drops rows whose x cannot be read on a continuous axis', () => {
    const data = { columns: [{ name: 'x', type: 'float' }, { name: 'y', type: 'float' }], rows: [{ x: null, y: 1 }, { x: 'n/a', y: 2 }, { x: 3, y: 3 }, { x: -1, y: 4 }] }
    expect(ys(prepareCartesian(options({ columnMapping: { x: 'x', y: 'y' } }), data), 'y')).toEqual([4, 3])
    expect(ys(prepareCartesian(options({ columnMapping: { x: 'x', y: 'y' }, xAxis: { type: 'logarithmic' } }), data), 'y')).toEqual([3])
  })

  it('ignores non-cartesian types written per series, and reads percentValues as percent stacking', () => {
    const data = { columns: [{ name: 'c' }, { name: 'a', type: 'float' }, { name: 'b', type: 'float' }], rows: [{ c: 'x', a: 1, b: 3 }] }
    const d = prepareCartesian(options({ columnMapping: { c: 'x', a: 'y', b: 'y' }, seriesOptions: { a: { type: 'pie' } }, series: { percentValues: true } }), data)
    expect(d.series.map((s) => s.type)).toEqual(['column', 'column'])
    expect(d.stacking).toBe('percent')
    expect(d.series.map((s) => s.points[0].y2)).toEqual([25, 100])
  })
})
