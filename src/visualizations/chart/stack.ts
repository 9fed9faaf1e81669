/**
 * Stacking, done before drawing so it can be tested and so every renderer agrees. Positive values stack upwards
 * from zero and negative values downwards, as separate piles; `percent` scales each x to shares of the total of
 * absolute values, so a mix of signs still spans 100%.
 */

export interface Stackable {
  x: number | string
  y: number | null
  y1: number
  y2: number
}

/** Sets y1/y2 on each point of `layers` (bottom layer first). Null values stay null and take no room. */
export function stackLayers(layers: Stackable[][], mode: 'stack' | 'percent' | null): void {
  if (!mode) {
    for (const layer of layers) for (const p of layer) {
      p.y1 = 0
      p.y2 = p.y ?? 0
    }
    return
  }
  const totals = new Map<number | string, number>()
  if (mode === 'percent') {
    for (const layer of layers) for (const p of layer) totals.set(p.x, (totals.get(p.x) ?? 0) + Math.abs(p.y ?? 0))
  }
  const up = new Map<number | string, number>()
  const down = new Map<number | string, number>()
  for (const layer of layers) {
    for (const p of layer) {
      let v = p.y ?? 0
      if (mode === 'percent') {
        const total = totals.get(p.x) ?? 0
        v = total ? (v / total) * 100 : 0
      }
      const pile = v < 0 ? down : up
      const base = pile.get(p.x) ?? 0
      p.y1 = base
      p.y2 = base + v
      pile.set(p.x, p.y2)
    }
  }
}
