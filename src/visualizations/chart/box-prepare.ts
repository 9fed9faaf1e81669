/**
 * Rows → box plots: the y values of each x category (and series), summarised as quartiles, whiskers at the last
 * value within 1.5 interquartile ranges, and the values beyond them as outliers (at most 200 per box, sampled with a
 * fixed seed, so 100,000 rows stay drawable).
 */
import { columnKind, columnLabel, toNumber, valueKey } from '../data.ts'
import { sampleIndices } from '../sample.ts'
import { seriesColor } from '../theme.ts'
import type { DataSet } from '../types.ts'
import { CategoryList } from './categories.ts'
import { resolveMapping } from './mapping.ts'
import type { ChartOptions } from './options.ts'

export const MAX_OUTLIERS = 200

export interface BoxStats {
  category: string
  series: string
  color: string
  count: number
  q1: number
  median: number
  q3: number
  /** Whisker ends. */
  low: number
  high: number
  mean: number
  outliers: number[]
}

export interface BoxData {
  kind: 'box'
  categories: string[]
  series: { name: string; color: string }[]
  boxes: BoxStats[]
  xTitle: string
  yTitle: string
}

/** The p-quantile of sorted `values`, interpolating between neighbours (the R-7 rule d3 and spreadsheets use). */
export function quantile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN
  const i = (sorted.length - 1) * p
  const lo = Math.floor(i)
  return lo + 1 < sorted.length ? sorted[lo] + (sorted[lo + 1] - sorted[lo]) * (i - lo) : sorted[lo]
}

/** Summary of one group's values. */
export function boxStats(values: number[]): Omit<BoxStats, 'category' | 'series' | 'color'> {
  const sorted = Float64Array.from(values).sort()
  const list = Array.from(sorted)
  const q1 = quantile(list, 0.25)
  const q3 = quantile(list, 0.75)
  const reach = 1.5 * (q3 - q1)
  const inside = list.filter((v) => v >= q1 - reach && v <= q3 + reach)
  const outside = list.filter((v) => v < q1 - reach || v > q3 + reach)
  return {
    count: list.length, q1, q3, median: quantile(list, 0.5),
    low: inside[0] ?? q1, high: inside[inside.length - 1] ?? q3,
    mean: list.reduce((s, v) => s + v, 0) / (list.length || 1),
    outliers: sampleIndices(outside.length, MAX_OUTLIERS).map((i) => outside[i]),
  }
}

/** One box per (x category, series) that has values. */
export function prepareBox(options: ChartOptions, data: DataSet): BoxData {
  const mapping = resolveMapping(options, data)
  const byName = new Map(data.columns.map((c) => [c.name, c]))
  const groups = new Map<string, { category: string; series: string; values: number[] }>()
  const categories = new CategoryList(columnKind(data.columns.find((c) => c.name === mapping.x), data.rows))
  const seriesNames: string[] = []
  for (const row of data.rows) {
    const category = mapping.x ? valueKey(row[mapping.x]) : ''
    for (const y of mapping.ys) {
      const value = toNumber(row[y])
      if (value === null) continue
      const yName = columnLabel(byName.get(y)!)
      const series = mapping.series ? valueKey(row[mapping.series]) : yName
      const key = `${category}\u0000${series}`
      categories.add(category, row[mapping.x!])
      if (!seriesNames.includes(series)) seriesNames.push(series)
      let g = groups.get(key)
      if (!g) groups.set(key, (g = { category, series, values: [] }))
      g.values.push(value)
    }
  }
  const order = categories.list(options.sortX)
  const series = seriesNames.map((name, i) => ({ name, color: seriesColor(i, options.palette, options.seriesOptions[name]?.color) }))
  const colorOf = new Map(series.map((s) => [s.name, s.color]))
  const boxes = [...groups.values()].map((g) => ({ category: g.category, series: g.series, color: colorOf.get(g.series)!, ...boxStats(g.values) }))
  const firstY = mapping.ys[0] ? byName.get(mapping.ys[0]) : undefined
  return {
    kind: 'box', categories: order, series, boxes,
    xTitle: options.xAxis.title.text || (mapping.x && byName.get(mapping.x) ? columnLabel(byName.get(mapping.x)!) : ''),
    yTitle: options.yAxis[0]?.title.text || (mapping.ys.length === 1 && firstY ? columnLabel(firstY) : ''),
  }
}
