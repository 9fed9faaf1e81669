/**
 * Grid clustering in screen space, as web maps do it: points closer than `radius` pixels to a cluster's first
 * point join the nearest. A grid of `radius`-sized cells means each point looks at 9 cells, so 10,000 points take
 * milliseconds. Point order decides the seeds, so the same data always clusters the same way.
 */

export interface Cluster {
  /**
   * Where the cluster is drawn: its first point. Seeds are at least `radius` apart, so discs of half that radius
   * never overlap, which members' mean positions would not promise.
   */
  x: number
  y: number
  /** Indexes of the member points. */
  members: number[]
}

/** Clusters of `xs`/`ys` (pixel positions); a point alone stays a cluster of one. */
export function clusterPoints(xs: ArrayLike<number>, ys: ArrayLike<number>, radius: number): Cluster[] {
  const grid = new Map<string, number[]>()
  const seeds: { x: number; y: number; members: number[] }[] = []
  const r2 = radius * radius
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]
    const y = ys[i]
    const cx = Math.floor(x / radius)
    const cy = Math.floor(y / radius)
    let found = -1
    let best = Infinity
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const s of grid.get(`${cx + dx},${cy + dy}`) ?? []) {
          const d = (seeds[s].x - x) ** 2 + (seeds[s].y - y) ** 2
          if (d <= r2 && d < best) {
            best = d
            found = s
          }
        }
      }
    }
    if (found >= 0) {
      seeds[found].members.push(i)
      continue
    }
    const key = `${cx},${cy}`
    const cell = grid.get(key)
    if (cell) cell.push(seeds.length)
    else grid.set(key, [seeds.length])
    seeds.push({ x, y, members: [i] })
  }
  return seeds
}
