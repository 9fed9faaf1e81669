import { describe, expect, it } from 'vitest'
import { categoryAxis, niceDomain, ticks } from './axes.ts'
import { reduceCartesian } from './chart/cartesian-reduce.ts'
import { prepareCartesian } from './chart/cartesian-prepare.ts'
import { ChartOptionsSchema } from './chart/options.ts'
import { layoutLegend } from './legend.ts'
import { minMaxIndices, POINT_LIMIT, sampleIndices } from './sample.ts'

describe('axes', () => {
  it('rounds domains and ticks', () => {
    expect(niceDomain(3, 97)).toEqual([0, 100])
    expect(niceDomain(-13, 42)).toEqual([-20, 50])
    expect(ticks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1])
    expect(niceDomain(5, 5)).toEqual([0, 10])
  })

  it('keeps category labels apart: all, rotated, then thinned', () => {
    const few = categoryAxis(['a', 'b', 'c'], 600, true)
    expect([few.ticks.length, few.rotate]).toEqual([3, 0])
    const long = categoryAxis(Array.from({ length: 20 }, (_, i) => `A rather long label ${i}`), 600, true)
    expect([long.ticks.length, long.rotate]).toEqual([20, -45])
    // they differ only at the end, so they are cut in the middle and stay distinct
    expect(long.labels[0]).toMatch(/^A rather.*….*label 0$/)
    expect(new Set(long.labels).size).toBe(20)
    expect(categoryAxis(['Alpha long name one', 'Beta long name two', 'Gamma long name'], 100, true, 60).labels[0]).toMatch(/^Alpha.*…$/)
    const many = categoryAxis(Array.from({ length: 1000 }, (_, i) => `c${i}`), 600, true)
    expect(many.ticks.length).toBeLessThan(50)
    expect(many.ticks[1] - many.ticks[0]).toBe(many.ticks[2] - many.ticks[1])
  })
})

describe('sampling', () => {
  it('samples the same indices for the same seed, in order', () => {
    const a = sampleIndices(100_000, 1000)
    expect(a).toEqual(sampleIndices(100_000, 1000))
    expect(a.length).toBe(1000)
    expect([...a].sort((x, y) => x - y)).toEqual(a)
  })

  it('keeps each pixel column\'s extremes', () => {
    const xs = Array.from({ length: 10_000 }, (_, i) => i)
    const ys = xs.map((i) => (i === 5_123 ? 1e6 : i === 7_777 ? -1e6 : Math.sin(i)))
    const keep = minMaxIndices(xs, ys, 100)
    expect(keep.length).toBeLessThanOrEqual(400)
    expect(keep).toContain(5_123)
    expect(keep).toContain(7_777)
  })

  it('thins a 100,000-point chart below the limit and says so', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ x: i, a: Math.sin(i / 50), b: i % 7 }))
    const o = ChartOptionsSchema.parse({ globalSeriesType: 'line', columnMapping: { x: 'x', a: 'y', b: 'y' } })
    const reduced = reduceCartesian(prepareCartesian(o, { columns: [{ name: 'x', type: 'integer' }, { name: 'a', type: 'float' }, { name: 'b', type: 'integer' }], rows }), 800)
    expect(reduced.series.reduce((n, s) => n + s.points.length, 0)).toBeLessThanOrEqual(POINT_LIMIT)
    expect(reduced.note).toMatch(/^Showing [\d,]+ of 200,000 points$/)
  })
})

describe('legend', () => {
  it('wraps entries into rows and sums up the rest', () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ label: `Series number ${i}`, color: '#000' }))
    const layout = layoutLegend(items, 'top', 500, 300)
    expect(new Set(layout.entries.map((e) => e.y)).size).toBe(3)
    expect(layout.more!.count).toBe(60 - layout.entries.length)
    for (const e of layout.entries) expect(e.x).toBeLessThan(500)
  })
})
