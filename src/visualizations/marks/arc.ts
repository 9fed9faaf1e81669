/**
 * Annular sectors as SVG path data, for pies, donuts and sunbursts. Plot has no arc mark, and these pictures need
 * no scales, so they are drawn directly. Angles run clockwise from twelve o'clock, in radians.
 */

const TAU = Math.PI * 2
const f = (n: number) => (Math.round(n * 100) / 100).toString()

function point(cx: number, cy: number, r: number, angle: number): string {
  return `${f(cx + r * Math.sin(angle))},${f(cy - r * Math.cos(angle))}`
}

/** Path data for the sector between radii `inner`..`outer` and angles `start`..`end`. */
export function arcPath(cx: number, cy: number, inner: number, outer: number, start: number, end: number): string {
  const sweep = end - start
  if (sweep <= 0 || outer <= 0) return ''
  if (sweep >= TAU - 1e-6) {
    // a full ring: two half circles, since one arc command cannot start and end at the same point
    const ring = (r: number, flag: 0 | 1) =>
      `M${point(cx, cy, r, 0)}A${f(r)},${f(r)} 0 1,${flag} ${point(cx, cy, r, Math.PI)}A${f(r)},${f(r)} 0 1,${flag} ${point(cx, cy, r, 0)}Z`
    return inner > 0 ? ring(outer, 1) + ring(inner, 0) : ring(outer, 1)
  }
  const large = sweep > Math.PI ? 1 : 0
  const outerArc = `M${point(cx, cy, outer, start)}A${f(outer)},${f(outer)} 0 ${large},1 ${point(cx, cy, outer, end)}`
  if (inner <= 0) return `${outerArc}L${f(cx)},${f(cy)}Z`
  return `${outerArc}L${point(cx, cy, inner, end)}A${f(inner)},${f(inner)} 0 ${large},0 ${point(cx, cy, inner, start)}Z`
}

/** The point at `radius` along the middle of an arc, for its label. */
export function arcCentroid(cx: number, cy: number, radius: number, start: number, end: number): [number, number] {
  const mid = (start + end) / 2
  return [cx + radius * Math.sin(mid), cy - radius * Math.cos(mid)]
}
