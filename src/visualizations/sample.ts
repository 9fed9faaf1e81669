/**
 * Keeping big results drawable. Past about 20,000 points an SVG gets slow to build and to paint and shows no more
 * than a few thousand would, so dense series are thinned in ways that keep what the eye sees: the min and max per
 * pixel column for lines, areas and bars (spikes survive), and a seeded random sample for scatter plots (the same
 * picture on every render).
 */

/** Above this many points a visualization thins its data. */
export const POINT_LIMIT = 20_000

/** A small fast PRNG (mulberry32): the same seed gives the same sequence on server and browser. */
export function seededRandom(seed = 42): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `count` items picked uniformly at random with a fixed seed, in their original order. */
export function sampleIndices(length: number, count: number, seed = 42): number[] {
  if (length <= count) return Array.from({ length }, (_, i) => i)
  const random = seededRandom(seed)
  // partial Fisher–Yates over the index array, then restore the original order
  const indices = Array.from({ length }, (_, i) => i)
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (length - i))
    const t = indices[i]
    indices[i] = indices[j]
    indices[j] = t
  }
  return indices.slice(0, count).sort((a, b) => a - b)
}

/**
 * Indices of the points worth drawing when `xs` (ascending) is drawn `buckets` pixels wide: in each pixel column the
 * first, the last, and the ones holding the smallest and largest y. The line drawn through them looks the same.
 */
export function minMaxIndices(xs: ArrayLike<number>, ys: ArrayLike<number | null>, buckets: number): number[] {
  const n = xs.length
  if (n <= buckets * 4) return Array.from({ length: n }, (_, i) => i)
  const x0 = xs[0]
  const span = xs[n - 1] - x0 || 1
  const keep: number[] = []
  let start = 0
  while (start < n) {
    const bucket = Math.min(buckets - 1, Math.floor(((xs[start] - x0) / span) * buckets))
    let end = start
    let lo = start
    let hi = start
    while (end < n && Math.min(buckets - 1, Math.floor(((xs[end] - x0) / span) * buckets)) === bucket) {
      const y = ys[end]
      if (y != null && (ys[lo] == null || y < (ys[lo] as number))) lo = end
      if (y != null && (ys[hi] == null || y > (ys[hi] as number))) hi = end
      end++
    }
    // a gap (null) inside the column is kept, so a broken line stays broken
    let gap = -1
    for (let i = start; i < end && gap < 0; i++) if (ys[i] == null) gap = i
    const picked = new Set([start, lo, hi, end - 1])
    if (gap >= 0) picked.add(gap)
    keep.push(...[...picked].sort((a, b) => a - b))
    start = end
  }
  return keep
}
