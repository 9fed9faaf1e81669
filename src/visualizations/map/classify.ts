/**
 * Splitting values into colour steps for choropleths: equal intervals, quantiles, or 1-D k-means (clusters of
 * similar values, started from the quantiles so the result is deterministic). Each returns the steps' upper bounds.
 */
import { quantile } from '../chart/box-prepare.ts'

/** Upper bounds of `steps` classes over `values` (the last bound is the maximum). */
export function classBreaks(values: number[], steps: number, mode: 'q' | 'e' | 'k'): number[] {
  const sorted = [...values].sort((a, b) => a - b)
  if (!sorted.length) return []
  const min = sorted[0]
  const max = sorted[sorted.length - 1]
  if (min === max) return [max]
  if (mode === 'e') return Array.from({ length: steps }, (_, i) => min + ((max - min) * (i + 1)) / steps)
  const quantiles = Array.from({ length: steps }, (_, i) => quantile(sorted, (i + 1) / steps))
  if (mode === 'q') return [...new Set(quantiles)]
  // k-means in one dimension: centres start at the middle of each quantile class
  let centres = Array.from({ length: steps }, (_, i) => quantile(sorted, (i + 0.5) / steps))
  for (let iteration = 0; iteration < 25; iteration++) {
    const sums = new Array(steps).fill(0)
    const counts = new Array(steps).fill(0)
    for (const v of sorted) {
      let best = 0
      for (let c = 1; c < steps; c++) if (Math.abs(v - centres[c]) < Math.abs(v - centres[best])) best = c
      sums[best] += v
      counts[best]++
    }
    const next = centres.map((c, i) => (counts[i] ? sums[i] / counts[i] : c))
    if (next.every((c, i) => c === centres[i])) break
    centres = next
  }
  const unique = [...new Set(centres)].sort((a, b) => a - b)
  // a class ends halfway to the next centre
  return unique.map((c, i) => (i + 1 < unique.length ? (c + unique[i + 1]) / 2 : max))
}

/** The class of `value`: the first bound it does not exceed. */
export function classOf(value: number, breaks: number[]): number {
  const i = breaks.findIndex((b) => value <= b)
  return i < 0 ? breaks.length - 1 : i
}
