import { DOMParser } from 'linkedom'
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib'
// pdf-lib parses SVG path data for its own drawSvgPath, but does not export the parser from its entry point
import { svgPathToOperators } from 'pdf-lib/cjs/api/svgPath.js'
import { needsSystemFonts } from './fonts.ts'

/**
 * A chart's SVG drawn into a PDF as vector paths and text, for the shapes the server's charts are made of (lines,
 * bars, areas, dots, axes): crisp at any zoom, a fraction of a picture's bytes, and no rasterising. Anything else
 * (clipping, gradients, rotated text, scripts the shipped font lacks …) throws `Unsupported`, and the caller draws
 * the chart as a picture instead, so a chart is never drawn wrong, only less sharply.
 */
export class Unsupported extends Error {}

interface Style {
  fill: Rgb | null
  stroke: Rgb | null
  color: Rgb
  strokeWidth: number
  fillOpacity: number
  strokeOpacity: number
  fontSize: number
  bold: boolean
  anchor: 'start' | 'middle' | 'end'
  /** PDF line cap and join: 0 butt/miter, 1 round, 2 projecting/bevel. */
  cap: number
  join: number
}
type Rgb = [number, number, number]

export interface VectorPens {
  doc: PDFDocument
  page: PDFPage
  regular: PDFFont
  bold: PDFFont
}

const NAMED: Record<string, Rgb> = { black: [0, 0, 0], white: [1, 1, 1] }

function color(value: string, current: Rgb): Rgb | null {
  const v = value.trim().toLowerCase()
  if (v === 'none' || v === 'transparent') return null
  if (v === 'currentcolor') return current
  if (NAMED[v]) return NAMED[v]
  let m = /^#([0-9a-f]{3})$/.exec(v)
  if (m) return [...m[1]].map((c) => parseInt(c + c, 16) / 255) as Rgb
  m = /^#([0-9a-f]{6})$/.exec(v)
  if (m) return [0, 2, 4].map((i) => parseInt(m![1].slice(i, i + 2), 16) / 255) as Rgb
  m = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(v)
  if (m) return [Number(m[1]) / 255, Number(m[2]) / 255, Number(m[3]) / 255]
  throw new Unsupported(`colour ${value}`)
}

const number = (value: string | null, fontSize: number, fallback = 0): number => {
  if (value === null || value === '') return fallback
  const m = /^(-?[\d.]+(?:e-?\d+)?)(em|px)?$/.exec(value.trim())
  if (!m) throw new Unsupported(`length ${value}`)
  return Number(m[1]) * (m[2] === 'em' ? fontSize : 1)
}

/** The properties an element sets, from its attributes and then its `style` (which wins, as in CSS). */
function ownProperties(el: Element): Map<string, string> {
  const props = new Map<string, string>()
  for (const attr of el.attributes) props.set(attr.name, attr.value)
  for (const decl of (el.getAttribute('style') ?? '').split(';')) {
    const at = decl.indexOf(':')
    if (at > 0) props.set(decl.slice(0, at).trim().toLowerCase(), decl.slice(at + 1).trim())
  }
  return props
}

const REFUSED = ['clip-path', 'mask', 'filter', 'stroke-dasharray', 'marker-start', 'marker-mid', 'marker-end', 'opacity', 'paint-order', 'rx', 'ry']

function inherit(parent: Style, props: Map<string, string>): Style {
  for (const name of REFUSED) if (props.has(name) && !(name === 'opacity' && props.get(name) === '1')) throw new Unsupported(name)
  const s = { ...parent }
  const get = (name: string) => props.get(name) ?? null
  if (get('color')) s.color = color(get('color')!, parent.color) ?? parent.color
  if (get('font-size')) s.fontSize = number(get('font-size'), parent.fontSize)
  if (get('fill')) s.fill = color(get('fill')!, s.color)
  if (get('stroke')) s.stroke = color(get('stroke')!, s.color)
  if (get('stroke-width')) s.strokeWidth = number(get('stroke-width'), s.fontSize)
  if (get('fill-opacity')) s.fillOpacity = parent.fillOpacity * Number(get('fill-opacity'))
  if (get('stroke-opacity')) s.strokeOpacity = parent.strokeOpacity * Number(get('stroke-opacity'))
  const weight = get('font-weight')
  if (weight) s.bold = weight === 'bold' || Number(weight) >= 600
  const anchor = get('text-anchor')
  if (anchor === 'start' || anchor === 'middle' || anchor === 'end') s.anchor = anchor
  const cap = get('stroke-linecap')
  if (cap) s.cap = cap === 'round' ? 1 : cap === 'square' ? 2 : 0
  const join = get('stroke-linejoin')
  if (join) s.join = join === 'round' ? 1 : join === 'bevel' ? 2 : 0
  return s
}

/** `translate(x, y)` (or none): the only transform the charts use; anything else is drawn as a picture. */
function translation(value: string | null): [number, number] | null {
  if (!value) return null
  const m = /^translate\(\s*(-?[\d.e-]+)(?:[\s,]+(-?[\d.e-]+))?\s*\)$/.exec(value.trim())
  if (!m) throw new Unsupported(`transform ${value}`)
  return [Number(m[1]), Number(m[2] ?? 0)]
}

const K = 0.5522847498

/** A number as PDF content writes it: at most 3 decimals, no trailing zeros. */
const n = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/\.?0+$/, '') || '0')
const rgb = (c: Rgb) => c.map(n).join(' ')

/**
 * The chart's content, written as PDF operators in text: a chart of a few hundred bars or dots is some thousands of
 * operators, which as pdf-lib's operator objects would hold several times the memory of their text until the file is saved.
 */
class Writer {
  out: string[] = []
  private states = new Map<string, string>()
  private fonts = new Map<PDFFont, string>()
  constructor(private pens: VectorPens) {}

  /** Colours and opacity for painting, and which painting operator ends the shape (null: nothing to paint). */
  paint(s: Style): string | null {
    const doFill = s.fill !== null && s.fillOpacity > 0
    const doStroke = s.stroke !== null && s.strokeOpacity > 0 && s.strokeWidth > 0
    if (!doFill && !doStroke) return null
    if (doFill) this.out.push(`${rgb(s.fill!)} rg`)
    if (doStroke) this.out.push(`${rgb(s.stroke!)} RG ${n(s.strokeWidth)} w ${s.cap} J ${s.join} j`)
    if (s.fillOpacity < 1 || s.strokeOpacity < 1) this.out.push(`${this.alpha(doFill ? s.fillOpacity : 1, doStroke ? s.strokeOpacity : 1)} gs`)
    return doFill && doStroke ? 'B' : doFill ? 'f' : 'S'
  }

  private alpha(ca: number, CA: number): string {
    const key = `${n(ca)}/${n(CA)}`
    let name = this.states.get(key)
    if (!name) {
      name = this.pens.page.node.newExtGState('GS', this.pens.doc.context.obj({ Type: 'ExtGState', ca, CA })).toString()
      this.states.set(key, name)
    }
    return name
  }

  shape(s: Style, path: string) {
    this.out.push('q')
    const end = this.paint(s)
    this.out.push(path, end ?? 'n', 'Q')
  }

  text(s: Style, x: number, y: number, content: string) {
    if (!content.trim() || s.fill === null) return
    if (needsSystemFonts(content)) throw new Unsupported('script beyond the shipped font')
    const font = s.bold ? this.pens.bold : this.pens.regular
    const width = font.widthOfTextAtSize(content, s.fontSize)
    const shift = s.anchor === 'middle' ? width / 2 : s.anchor === 'end' ? width : 0
    let name = this.fonts.get(font)
    if (!name) this.fonts.set(font, (name = this.pens.page.node.newFontDictionary(font.name, font.ref).toString()))
    this.out.push(`q ${rgb(s.fill)} rg`)
    if (s.fillOpacity < 1) this.out.push(`${this.alpha(s.fillOpacity, 1)} gs`)
    // the drawing's y runs down: text is set upright at its baseline
    this.out.push(`1 0 0 -1 ${n(x)} ${n(y)} cm BT ${name} ${n(s.fontSize)} Tf ${n(-shift)} 0 Td ${font.encodeText(content).toString()} Tj ET Q`)
  }
}

function walk(w: Writer, el: Element, parent: Style): void {
  const tag = el.tagName.toLowerCase()
  if (tag === 'title' || tag === 'style' || tag === 'desc') return
  const s = inherit(parent, ownProperties(el))
  const move = translation(el.getAttribute('transform'))
  const attr = (name: string, fallback = 0) => number(el.getAttribute(name), s.fontSize, fallback)
  const inner = tag === 'svg' ? nestedOffset(el) : null
  const offset = move ?? inner
  if (offset) w.out.push(`q 1 0 0 1 ${n(offset[0])} ${n(offset[1])} cm`)
  switch (tag) {
    case 'svg':
    case 'g':
    case 'a':
      for (const child of el.children) walk(w, child, s)
      break
    case 'line':
      w.shape({ ...s, fill: null }, `${n(attr('x1'))} ${n(attr('y1'))} m ${n(attr('x2'))} ${n(attr('y2'))} l`)
      break
    case 'rect': {
      const width = attr('width')
      const height = attr('height')
      if (width > 0 && height > 0) w.shape(s, `${n(attr('x'))} ${n(attr('y'))} ${n(width)} ${n(height)} re`)
      break
    }
    case 'circle': {
      const [cx, cy, r] = [attr('cx'), attr('cy'), attr('r')]
      if (r > 0) {
        const c = (x1: number, y1: number, x2: number, y2: number, x3: number, y3: number) => `${n(x1)} ${n(y1)} ${n(x2)} ${n(y2)} ${n(x3)} ${n(y3)} c`
        w.shape(s, [
          `${n(cx + r)} ${n(cy)} m`,
          c(cx + r, cy + K * r, cx + K * r, cy + r, cx, cy + r),
          c(cx - K * r, cy + r, cx - r, cy + K * r, cx - r, cy),
          c(cx - r, cy - K * r, cx - K * r, cy - r, cx, cy - r),
          c(cx + K * r, cy - r, cx + r, cy - K * r, cx + r, cy),
          'h',
        ].join(' '))
      }
      break
    }
    case 'path': {
      const d = el.getAttribute('d') ?? ''
      if (d.trim()) w.shape(s, svgPathToOperators(d).map(String).join('\n'))
      break
    }
    case 'text':
      drawText(w, el, s)
      break
    default:
      throw new Unsupported(`<${tag}>`)
  }
  if (offset) w.out.push('Q')
}

/** A nested <svg> the charts use as a plain group: at (x, y), its viewBox its own size (no scaling, no clipping that matters). */
function nestedOffset(el: Element): [number, number] | null {
  if (!el.parentElement) return null
  const box = el.getAttribute('viewBox')
  if (box) {
    const [minX, minY, vw, vh] = box.trim().split(/[\s,]+/).map(Number)
    if (minX !== 0 || minY !== 0 || vw !== Number(el.getAttribute('width')) || vh !== Number(el.getAttribute('height'))) throw new Unsupported('scaled <svg>')
  }
  return [Number(el.getAttribute('x') ?? 0), Number(el.getAttribute('y') ?? 0)]
}

/** A <text>, and its <tspan>s each at its own x and y (or dy below the one before), as the charts write labels. */
function drawText(w: Writer, el: Element, s: Style) {
  const spans = [...el.children]
  let x = number(el.getAttribute('x'), s.fontSize)
  let y = number(el.getAttribute('y'), s.fontSize) + number(el.getAttribute('dy'), s.fontSize)
  if (spans.length === 0) return w.text(s, x, y, el.textContent ?? '')
  for (const span of spans) {
    if (span.tagName.toLowerCase() === 'title') continue
    if (span.tagName.toLowerCase() !== 'tspan' || span.children.length) throw new Unsupported('nested text')
    const t = inherit(s, ownProperties(span))
    if (span.getAttribute('x') !== null) x = number(span.getAttribute('x'), t.fontSize)
    if (span.getAttribute('y') !== null) y = number(span.getAttribute('y'), t.fontSize)
    y += number(span.getAttribute('dy'), t.fontSize)
    w.text(t, x, y, span.textContent ?? '')
  }
}

const ROOT: Style = {
  fill: [0, 0, 0], stroke: null, color: [0, 0, 0], strokeWidth: 1, fillOpacity: 1, strokeOpacity: 1, fontSize: 16, bold: false, anchor: 'start',
  cap: 0, join: 0,
}

/**
 * The content that draws `svg` into the box whose top-left corner is (x, top) in PDF points, `scale` points per SVG
 * unit, as PDF operators in text; throws `Unsupported` (having drawn nothing) when the drawing holds what this does not draw.
 */
export function svgToPdfContent(pens: VectorPens, svg: string, at: { x: number; top: number; scale: number }): string {
  if (needsSystemFonts(svg)) throw new Unsupported('script beyond the shipped font')
  const root = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement as unknown as Element | null
  if (!root || root.tagName.toLowerCase() !== 'svg') throw new Unsupported('not an <svg>')
  const w = new Writer(pens)
  // the drawing's units and y axis (down) mapped onto the page's (points, up)
  w.out.push(`q ${n(at.scale)} 0 0 ${n(-at.scale)} ${n(at.x)} ${n(at.top)} cm`)
  walk(w, root, ROOT)
  w.out.push('Q')
  return w.out.join('\n')
}
