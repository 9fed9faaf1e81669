/**
 * Where bars go along the category (or time) axis. Categories sit at 0, 1, 2 …, dates and numbers at their value;
 * a slot is 80% of the smallest gap between neighbouring positions, split between series when bars are grouped
 * rather than stacked.
 */

export interface BarSlots {
  /** Width of one position's whole slot, in axis units. */
  band: number
  /** The span of series `index` (of `count`) at position `x`. */
  span(x: number, index: number): [number, number]
}

const DAY = 86_400_000

/** Slots for bars at `positions` (sorted or not), `count` series wide when `grouped`. */
export function barSlots(positions: number[], count: number, grouped: boolean, kind: 'category' | 'time' | 'other'): BarSlots {
  let gap = Infinity
  if (kind === 'category') gap = 1
  else {
    const sorted = [...new Set(positions)].sort((a, b) => a - b)
    for (let i = 1; i < sorted.length; i++) gap = Math.min(gap, sorted[i] - sorted[i - 1])
    if (!Number.isFinite(gap)) gap = kind === 'time' ? DAY : 1
  }
  const band = gap * 0.8
  const lanes = grouped ? Math.max(1, count) : 1
  const lane = band / lanes
  // a hair of space between grouped bars keeps neighbours apart
  const inner = lanes > 1 ? lane * 0.06 : 0
  return {
    band,
    span(x, index) {
      const start = x - band / 2 + (grouped ? index : 0) * lane
      return [start + inner / 2, start + lane - inner / 2]
    },
  }
}
