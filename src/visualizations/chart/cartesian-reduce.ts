/**
 * Thinning a chart's series before drawing when it has more than `POINT_LIMIT` points (see sample.ts): min/max per
 * pixel column for lines, areas and bars, a seeded random sample for scatter and bubble series. Stacked layers
 * share one choice of x values, so the stack stays whole.
 */
import { minMaxIndices, POINT_LIMIT, sampleIndices } from '../sample.ts'
import type { CartesianData, ChartPoint, ChartSeries } from './cartesian-prepare.ts'

export interface Reduced {
  series: ChartSeries[]
  /** Said under the chart when points were left out. */
  note: string | null
}

const position = (data: CartesianData, rank: Map<string, number>) => (p: ChartPoint) =>
  typeof p.x === 'string' ? rank.get(p.x) ?? 0 : p.x

/** The series to draw at `width` pixels: the same ones when small enough. */
export function reduceCartesian(data: CartesianData, width: number): Reduced {
  const total = data.series.reduce((n, s) => n + s.points.length, 0)
  if (total <= POINT_LIMIT) return { series: data.series, note: null }
  const rank = new Map(data.categories.map((c, i) => [c, i]))
  const pos = position(data, rank)
  const buckets = Math.max(200, Math.round(width))
  const scattered = data.series.filter((s) => s.type === 'scatter' || s.type === 'bubble')
  const perScatter = Math.floor(POINT_LIMIT / 2 / Math.max(1, scattered.length))
  const stacked = data.stacking ? data.series.filter((s) => s.type === 'column' || s.type === 'area') : []
  // one choice of x for all stacked layers: from the pile's total
  let shared: number[] | null = null
  if (stacked.length) {
    const base = stacked[0].points
    const tops = base.map((_, i) => stacked.reduce((sum, s) => sum + Math.abs(s.points[i]?.y ?? 0), 0))
    shared = minMaxIndices(base.map(pos), tops, buckets)
  }
  const series = data.series.map((s): ChartSeries => {
    let keep: number[]
    if (s.type === 'scatter' || s.type === 'bubble') keep = sampleIndices(s.points.length, perScatter)
    else if (shared && stacked.includes(s)) keep = shared
    else keep = minMaxIndices(s.points.map(pos), s.points.map((p) => p.y), buckets)
    return { ...s, points: keep.map((i) => s.points[i]).filter(Boolean) }
  })
  const drawn = series.reduce((n, s) => n + s.points.length, 0)
  return { series, note: `Showing ${drawn.toLocaleString('en')} of ${total.toLocaleString('en')} points` }
}
