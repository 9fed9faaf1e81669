/**
 * Stacking, done before drawing so it can be tested and so every renderer agrees. Positive values stack upwards
 * from zero and negative values downwards, as separate piles; `percent` scales each x to shares of the total of
 * absolute values, so a mix of signs still spans 100%. Layers are aligned (prepare puts every dense series on the
 * same x values), so the piles are arrays by position rather than maps by x.
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
  const length = Math.max(0, ...layers.map((l) => l.length))
  const totals = new Float64Array(length)
  if (mode === 'percent') {
    for (const layer of layers) layer.forEach((p, i) => (totals[i] += Math.abs(p.y ?? 0)))
  }
  const up = new Float64Array(length)
  const down = new Float64Array(length)
  for (const layer of layers) {
    layer.forEach((p, i) => {
      let v = p.y ?? 0
      if (mode === 'percent') v = totals[i] ? (v / totals[i]) * 100 : 0
      const pile = v < 0 ? down : up
      p.y1 = pile[i]
      p.y2 = pile[i] + v
      pile[i] = p.y2
    })
  }
}
