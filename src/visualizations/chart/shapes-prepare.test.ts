import { describe, expect, it } from 'vitest'
import { boxStats, prepareBox, quantile } from './box-prepare.ts'
import { prepareHeatmap } from './heatmap-prepare.ts'
import { ChartOptionsSchema } from './options.ts'
import { MAX_SLICES, preparePie } from './pie-prepare.ts'

const options = (o: Record<string, unknown>) => ChartOptionsSchema.parse(o)

describe('preparePie', () => {
  const data = {
    columns: [{ name: 'k' }, { name: 'v', type: 'float' }],
    rows: [{ k: 'a', v: 1 }, { k: 'b', v: 3 }, { k: 'a', v: 2 }, { k: 'c', v: -5 }, { k: 'd', v: null }, { k: null, v: 2 }],
  }

  it('sums slices, drops non-positive ones, and orders largest first', () => {
    const pie = preparePie(options({ globalSeriesType: 'pie', columnMapping: { k: 'x', v: 'y' } }), data).pies[0]
    expect(pie.slices.map((s) => [s.label, s.value])).toEqual([['a', 3], ['b', 3], ['null', 2]])
    expect(pie.total).toBe(8)
    expect(pie.slices.at(-1)!.endAngle).toBeCloseTo(2 * Math.PI)
  })

  it('keeps row order without sortX, and a hole for donuts', () => {
    const d = preparePie(options({ globalSeriesType: 'donut', columnMapping: { k: 'x', v: 'y' }, sortX: false }), data)
    expect(d.pies[0].slices.map((s) => s.label)).toEqual(['a', 'b', 'null'])
    expect(d.hole).toBeGreaterThan(0)
  })

  it('merges the smallest slices into Other past the limit', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ k: `k${i}`, v: i + 1 }))
    const pie = preparePie(options({ globalSeriesType: 'pie', columnMapping: { k: 'x', v: 'y' } }), { columns: data.columns, rows }).pies[0]
    expect(pie.slices).toHaveLength(MAX_SLICES)
    expect(pie.slices.at(-1)!.label).toBe('Other (17)')
    expect(pie.total).toBe(820)
  })

  it('uses per-value colours', () => {
    const d = preparePie(options({ globalSeriesType: 'pie', columnMapping: { k: 'x', v: 'y' }, valuesOptions: { b: { color: '#000000' } } }), data)
    expect(d.legend.find((l) => l.label === 'b')!.color).toBe('#000000')
  })
})

describe('prepareHeatmap', () => {
  it('sums cells and orders both axes', () => {
    const rows = [
      { day: '2024-01-02', hour: 9, n: 1 }, { day: '2024-01-01', hour: 10, n: 2 }, { day: '2024-01-01', hour: 9, n: 3 },
      { day: '2024-01-01', hour: 9, n: 4 }, { day: '2024-01-03', hour: 10, n: null },
    ]
    const d = prepareHeatmap(options({ globalSeriesType: 'heatmap', columnMapping: { day: 'x', hour: 'y', n: 'zVal' } }), {
      columns: [{ name: 'day', type: 'date' }, { name: 'hour', type: 'integer' }, { name: 'n', type: 'integer' }], rows,
    })
    expect(d.xs).toEqual(['2024-01-01', '2024-01-02'])
    expect(d.ys).toEqual(['9', '10'])
    expect(d.cells.find((c) => c.x === '2024-01-01' && c.y === '9')!.value).toBe(7)
    expect([d.min, d.max]).toEqual([1, 7])
  })
})

describe('prepareBox', () => {
  it('computes quartiles the way spreadsheets do', () => {
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75)
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5)
    const s = boxStats([1, 2, 3, 4, 5, 6, 7, 8, 100])
    expect([s.q1, s.median, s.q3, s.low, s.high]).toEqual([3, 5, 7, 1, 8])
    expect(s.outliers).toEqual([100])
  })

  it('makes one box per category and series, skipping nulls', () => {
    const rows = [{ g: 'b', v: 1 }, { g: 'a', v: 2 }, { g: 'a', v: null }, { g: 'a', v: 4 }]
    const d = prepareBox(options({ globalSeriesType: 'box', columnMapping: { g: 'x', v: 'y' } }), { columns: [{ name: 'g' }, { name: 'v', type: 'float' }], rows })
    expect(d.categories).toEqual(['a', 'b'])
    expect(d.boxes.map((b) => [b.category, b.count, b.median])).toEqual([['b', 1, 1], ['a', 2, 3]])
  })
})
