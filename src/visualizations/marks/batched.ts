/**
 * Plot render transforms that draw many dots or rects as one <path>. Plot makes one element per datum, and past a
 * few thousand elements building and serialising the SVG dominates the time (10,000 circles: about 4× slower than
 * one path). Below `BATCH_THRESHOLD` marks stay separate elements, which keeps their tooltips.
 */

export const BATCH_THRESHOLD = 2000

const SVG = 'http://www.w3.org/2000/svg'

type Channel = ArrayLike<number> | undefined
interface Values {
  x?: Channel
  y?: Channel
  x1?: Channel
  x2?: Channel
  y1?: Channel
  y2?: Channel
  r?: Channel
}
interface Context {
  document: Document
}

/** A render transform for Plot: scaled channel values in, one SVG element out. */
export type RenderTransform = (index: number[], scales: unknown, values: Values, dimensions: unknown, context: Context) => SVGElement

function group(document: Document, d: string, attributes: Record<string, string | number>): SVGElement {
  const g = document.createElementNS(SVG, 'g') as SVGElement
  const path = document.createElementNS(SVG, 'path')
  for (const [k, v] of Object.entries(attributes)) path.setAttribute(k, String(v))
  path.setAttribute('d', d)
  g.appendChild(path)
  return g
}

// a tenth of a pixel is finer than any screen draws, and keeps 10,000 shapes' path data short
const f = (n: number) => String(Math.round(n * 10) / 10)

/** Dots of radius `r` (or the r channel) drawn as one path of circles. */
export function batchedDots(attributes: Record<string, string | number>, r = 3): RenderTransform {
  return (index, _scales, values, _dimensions, { document }) => {
    const X = values.x!
    const Y = values.y!
    const R = values.r
    const parts: string[] = []
    for (const i of index) {
      const radius = R ? R[i] : r
      if (!(radius > 0) || !Number.isFinite(X[i]) || !Number.isFinite(Y[i])) continue
      const d = f(radius * 2)
      parts.push(`M${f(X[i] - radius)},${f(Y[i])}a${f(radius)},${f(radius)} 0 1,0 ${d},0a${f(radius)},${f(radius)} 0 1,0 -${d},0`)
    }
    return group(document, parts.join(''), attributes)
  }
}

interface BandScales {
  x?: { bandwidth?: () => number }
  y?: { bandwidth?: () => number }
}

/**
 * Rects drawn as one path per fill colour: from x1/x2 and y1/y2, or from band positions x/y (cells) widened by
 * the band's width. Without a fill channel every rect takes `attributes.fill`.
 */
export function batchedRects(attributes: Record<string, string | number>): RenderTransform {
  return (index, scales, values, _dimensions, { document }) => {
    const bands = scales as BandScales
    const bw = bands.x?.bandwidth?.() ?? 0
    const bh = bands.y?.bandwidth?.() ?? 0
    const X1 = values.x1 ?? values.x!
    const X2 = values.x2
    const Y1 = values.y1 ?? values.y!
    const Y2 = values.y2
    const F = (values as { fill?: ArrayLike<string> }).fill
    const paths = new Map<string, string[]>()
    for (const i of index) {
      const a = X1[i]
      const b = X2 ? X2[i] : a + bw
      const c = Y1[i]
      const d = Y2 ? Y2[i] : c + bh
      const x = Math.min(a, b)
      const y = Math.min(c, d)
      const w = Math.abs(b - a)
      const h = Math.abs(d - c)
      if (!Number.isFinite(x + y + w + h)) continue
      const fill = F ? F[i] : String(attributes.fill)
      let parts = paths.get(fill)
      if (!parts) paths.set(fill, (parts = []))
      parts.push(`M${f(x)},${f(y)}h${f(w)}v${f(h)}h${f(-w)}z`)
    }
    const g = document.createElementNS(SVG, 'g') as SVGElement
    for (const [fill, parts] of paths) {
      const path = document.createElementNS(SVG, 'path')
      for (const [k, v] of Object.entries(attributes)) path.setAttribute(k, String(v))
      path.setAttribute('fill', fill)
      path.setAttribute('d', parts.join(''))
      g.appendChild(path)
    }
    return g
  }
}
