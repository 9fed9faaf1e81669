/**
 * Axis layout decided before Plot draws: nice numeric domains and ticks (so margins fit the widest label and a
 * second y axis can share the first one's grid), and category axes that stay readable at any count: labels
 * truncated with an ellipsis, rotated when crowded, thinned when even rotated ones would overlap.
 */
import { textWidth, truncate, truncateMiddle } from './format/text.ts'
import { FONT_SIZE } from './theme.ts'

/** A round step giving about `count` ticks between `start` and `stop` (d3's rule: 1, 2 or 5 times a power of ten). */
export function tickStep(start: number, stop: number, count: number): number {
  const raw = Math.abs(stop - start) / Math.max(1, count)
  if (!Number.isFinite(raw) || raw === 0) return 1
  let step = 10 ** Math.floor(Math.log10(raw))
  const error = raw / step
  if (error >= Math.sqrt(50)) step *= 10
  else if (error >= Math.sqrt(10)) step *= 5
  else if (error >= Math.sqrt(2)) step *= 2
  return step
}

/** `[min, max]` widened to round tick values; an empty or flat domain gets room around its value. */
export function niceDomain(min: number, max: number, count = 5): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1]
  if (min === max) {
    const pad = Math.abs(min) || 1
    return min >= 0 && min - pad < 0 ? [0, min + pad] : [min - pad, max + pad]
  }
  let [lo, hi] = [min, max]
  for (let i = 0; i < 2; i++) {
    const step = tickStep(lo, hi, count)
    lo = Math.floor(lo / step) * step
    hi = Math.ceil(hi / step) * step
  }
  return [lo, hi]
}

/** Round values from `min` to `max` about `count` apart, free of floating-point dust (0.30000000000000004). */
export function ticks(min: number, max: number, count = 5): number[] {
  const step = tickStep(min, max, count)
  const out: number[] = []
  const first = Math.ceil(min / step - 1e-9)
  const last = Math.floor(max / step + 1e-9)
  const digits = Math.max(0, -Math.floor(Math.log10(step)))
  for (let k = first; k <= last && out.length < 1000; k++) out.push(Number((k * step).toFixed(digits)))
  return out
}

export interface CategoryAxis {
  /** How far the first label reaches left of its tick (rotated labels lean left). */
  overhang: number
  /** Indices of the categories that get a label. */
  ticks: number[]
  /** Label text per category index (truncated). */
  labels: string[]
  rotate: number
  /** Room the labels need across the axis (below an x axis, left of a y axis). */
  margin: number
}

const GAP = 10

/** Labels for `categories` along an axis `length` pixels long; `across` says whether it runs left-to-right. */
export function categoryAxis(categories: string[], length: number, across: boolean, maxLabel = 140): CategoryAxis {
  const n = categories.length
  const fontSize = FONT_SIZE
  const budget = across ? Math.min(maxLabel, 110) : maxLabel
  // truncating 100,000 labels is wasted work when only a few hundred can show: measure the ones that might
  const step0 = Math.max(1, Math.ceil((n * (fontSize + 3)) / Math.max(1, length)))
  const labels: string[] = new Array(n)
  // labels that differ only at the end would all look alike cut at the end: cut those in the middle
  const seen = new Set<string>()
  let clash = false
  for (let i = 0; i < n && !clash; i += step0) {
    const cut = truncate(categories[i], budget, fontSize)
    clash = cut !== categories[i] && seen.has(cut)
    seen.add(cut)
  }
  const shorten = clash ? truncateMiddle : truncate
  let widest = 0
  for (let i = 0; i < n; i += step0) {
    labels[i] = shorten(categories[i], budget, fontSize)
    widest = Math.max(widest, textWidth(labels[i], fontSize))
  }
  if (!across) {
    const step = Math.max(1, Math.ceil((n * (fontSize + 4)) / Math.max(1, length)))
    return { ticks: indices(n, step), labels, rotate: 0, margin: Math.ceil(widest + 12), overhang: 0 }
  }
  if (step0 === 1 && n * (widest + GAP) <= length) {
    return { ticks: indices(n, 1), labels, rotate: 0, margin: fontSize + 18, overhang: textWidth(labels[0] ?? '', fontSize) / 2 }
  }
  // rotated 45°: each label takes about 1.5 line heights along the axis and widest·sin45 across it
  const step = Math.max(1, Math.ceil((n * fontSize * 1.5) / Math.max(1, length)))
  let tall = 0
  for (let i = 0; i < n; i += step) {
    labels[i] ??= shorten(categories[i], budget, fontSize)
    tall = Math.max(tall, textWidth(labels[i], fontSize))
  }
  const first = textWidth(labels[0] ?? '', fontSize) * Math.SQRT1_2
  return { ticks: indices(n, step), labels, rotate: -45, margin: Math.ceil(tall * Math.SQRT1_2 + fontSize + 14), overhang: first }
}

function indices(n: number, step: number): number[] {
  const out: number[] = []
  for (let i = 0; i < n; i += step) out.push(i)
  return out
}

/** Room left of a y axis for the widest of `labels`. */
export function labelMargin(labels: string[], min = 30): number {
  let widest = 0
  for (const l of labels) widest = Math.max(widest, textWidth(l, FONT_SIZE))
  return Math.max(min, Math.ceil(widest + 14))
}

/** Room left of the plot that the first category label needs, on an axis `length` pixels long. */
export function leftOverhang(axis: CategoryAxis, length: number): number {
  return Math.max(0, Math.ceil(axis.overhang - length / Math.max(1, axis.labels.length) / 2 + 4))
}
