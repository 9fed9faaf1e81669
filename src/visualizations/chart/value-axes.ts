/**
 * The value axes of a cartesian chart: a left one and, when some series ask for it (`seriesOptions[s].yAxis = 1`),
 * a right one. Plot has one y scale, so right-axis values are mapped linearly onto the left axis's domain and the
 * right axis labels its ticks with the original values; both axes then share one grid.
 */
import { niceDomain, tickStep, ticks } from '../axes.ts'
import { formatNumber } from '../format/number.ts'
import type { ChartSeries } from './cartesian-prepare.ts'
import type { ChartOptions } from './options.ts'

export interface ValueAxis {
  domain: [number, number]
  /** Tick positions in left-axis units; null lets Plot choose (log axes). */
  ticks: number[] | null
  log: boolean
  /** Left-axis position of a value on this axis. */
  map(v: number): number
  /** Tick label for a position on this axis. */
  label(position: number): string
}

const STACKED = new Set(['column', 'area'])

/**
 * Tick labels with as many decimals as the step needs; on an axis reaching 10,000 every label is abbreviated
 * (k, m, b), so one axis never mixes 8,000 with 10k.
 */
export function tickFormatter(step: number, percent: boolean, largest = 0): (v: number) => string {
  if (percent) return (v) => `${formatNumber(v, '0,0.[00]')}%`
  if (largest >= 10_000 && step >= 100) return (v) => formatNumber(v, '0.[00]a')
  const digits = Math.max(0, Math.min(8, -Math.floor(Math.log10(step))))
  return (v) => formatNumber(v, digits ? `0,0.${'0'.repeat(digits)}` : '0,0')
}

// 99.99999999999999 is 100: sums of shares and stacked floats must not widen a nice domain by a whole step
const tidy = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(12)) : v)

function extent(series: ChartSeries[]): [number, number, boolean] {
  let lo = Infinity
  let hi = -Infinity
  let bars = false
  for (const s of series) {
    const stacked = STACKED.has(s.type)
    if (stacked) bars = true
    for (const p of s.points) {
      if (p.y === null) continue
      const a = stacked ? p.y1 : p.y - (p.error ?? 0)
      const b = stacked ? p.y2 : p.y + (p.error ?? 0)
      if (a < lo) lo = a
      if (b < lo) lo = b
      if (a > hi) hi = a
      if (b > hi) hi = b
    }
  }
  return [lo, hi, bars]
}

function axisFor(series: ChartSeries[], axis: ChartOptions['yAxis'][number] | undefined, percent: boolean, count: number) {
  let [lo, hi, bars] = extent(series)
  lo = tidy(lo)
  hi = tidy(hi)
  // a bubble at the top or bottom value would be cut in half by the frame
  if (series.some((s) => s.type === 'bubble') && hi > lo) [lo, hi] = [lo - (hi - lo) * 0.08, hi + (hi - lo) * 0.08]
  const log = axis?.type === 'logarithmic'
  if (!Number.isFinite(lo)) [lo, hi] = [0, 1]
  if (log) {
    lo = Math.max(lo, Number.MIN_VALUE)
    if (lo <= 0 || !Number.isFinite(lo)) lo = 1
    return { domain: [axis?.rangeMin ?? lo, axis?.rangeMax ?? Math.max(hi, lo * 10)] as [number, number], log, percent, step: 1 }
  }
  if (bars) [lo, hi] = [Math.min(lo, 0), Math.max(hi, 0)]
  let domain = niceDomain(axis?.rangeMin ?? lo, axis?.rangeMax ?? hi, count)
  if (axis?.rangeMin != null) domain[0] = axis.rangeMin
  if (axis?.rangeMax != null) domain[1] = axis.rangeMax
  if (domain[0] >= domain[1]) domain = niceDomain(domain[0], domain[0] + 1, count)
  return { domain, log, percent, step: tickStep(domain[0], domain[1], count) }
}

/** Left and right axes for `series` drawn `length` pixels tall (or wide, for horizontal bars). */
export function valueAxes(series: ChartSeries[], options: ChartOptions, stacking: CartesianStacking, length: number, spacing = 45) {
  const count = Math.max(2, Math.round(length / spacing))
  const rightSeries = series.filter((s) => s.yAxis === 1)
  const leftSeries = rightSeries.length === series.length ? series : series.filter((s) => s.yAxis !== 1)
  const percentOf = (list: ChartSeries[]) => stacking === 'percent' && list.every((s) => STACKED.has(s.type))
  const l = axisFor(leftSeries, options.yAxis[0], percentOf(leftSeries), count)
  const largest = (d: [number, number]) => Math.max(Math.abs(d[0]), Math.abs(d[1]))
  const leftFormat = tickFormatter(l.step, l.percent, largest(l.domain))
  const left: ValueAxis = {
    domain: l.domain, log: l.log, map: (v) => v, label: leftFormat,
    ticks: l.log ? null : ticks(l.domain[0], l.domain[1], count),
  }
  if (rightSeries.length === series.length || !rightSeries.length || l.log) return { left, right: null }
  const r = axisFor(rightSeries, options.yAxis[1], percentOf(rightSeries), count)
  const [l0, l1] = l.domain
  const [r0, r1] = r.domain
  const scale = (l1 - l0) / (r1 - r0 || 1)
  const rightFormat = tickFormatter(r.step, r.percent, largest(r.domain))
  const right: ValueAxis = {
    domain: r.domain, log: false,
    map: (v) => l0 + (v - r0) * scale,
    label: (position) => rightFormat(r0 + (position - l0) / scale),
    ticks: ticks(r0, r1, count).map((v) => l0 + (v - r0) * scale),
  }
  return { left, right }
}

export type CartesianStacking = 'stack' | 'percent' | null
