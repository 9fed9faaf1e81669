/**
 * Putting a series' points in x order and on a shared set of x values, with arrays rather than maps keyed by x:
 * timestamps are too large for V8's small integers, so a Map keyed by them boxes every key, and at 100,000 points
 * that garbage dominated the chart's preparation. Keys are numbers: the time or value, or the category's rank.
 */
import type { ChartPoint } from './point.ts'

export interface Keyed {
  points: ChartPoint[]
  keys: number[]
}

/** The point indices in ascending key order (stable: equal keys keep row order). */
function order(keys: number[]): number[] {
  const index = Array.from({ length: keys.length }, (_, i) => i)
  return index.sort((a, b) => keys[a] - keys[b] || a - b)
}

/** Points sorted by key; with `merge`, points sharing a key become one whose y is their sum (nulls count as absent). */
export function sortByKey(series: Keyed, merge: boolean): Keyed {
  const points: ChartPoint[] = []
  const keys: number[] = []
  for (const i of order(series.keys)) {
    const p = series.points[i]
    const k = series.keys[i]
    const last = points.length - 1
    if (merge && last >= 0 && keys[last] === k) {
      const same = points[last]
      same.y = same.y === null ? p.y : p.y === null ? same.y : same.y + p.y
      continue
    }
    points.push(p)
    keys.push(k)
  }
  return { points, keys }
}

/** Every key of `lists` once, ascending. */
export function unionKeys(lists: number[][]): number[] {
  const all = Float64Array.from(lists.flat()).sort()
  const out: number[] = []
  for (let i = 0; i < all.length; i++) if (!i || all[i] !== all[i - 1]) out.push(all[i])
  return out
}

/** One point per key of `all` (both sorted): the series' own where it has one, else `filler(key)`. */
export function alignToKeys(series: Keyed, all: number[], filler: (key: number) => ChartPoint): ChartPoint[] {
  const out: ChartPoint[] = new Array(all.length)
  let j = 0
  for (let i = 0; i < all.length; i++) {
    while (j < series.keys.length && series.keys[j] < all[i]) j++
    out[i] = j < series.keys.length && series.keys[j] === all[i] ? series.points[j] : filler(all[i])
  }
  return out
}
