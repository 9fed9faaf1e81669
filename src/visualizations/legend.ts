/**
 * Legends drawn inside the SVG. Plot's own swatch legends are HTML around the SVG; ours stay part of one picture,
 * so a chart is a single self-contained SVG (saved, embedded or snapshotted alike). Labels are truncated with an
 * ellipsis (the full text stays in a <title>), and entries that do not fit become "+N more".
 */
import { escapeHtml, textWidth, truncate } from './format/text.ts'
import { FONT_SIZE, MUTED_TEXT } from './theme.ts'

export interface LegendItem {
  label: string
  color: string
  /** Lines get a short stroke, everything else a rounded square. */
  shape?: 'square' | 'line'
}

export type LegendPlacement = 'top' | 'below' | 'right'

export interface LegendLayout {
  placement: LegendPlacement
  /** Room the legend takes: a height for top/below, a width for right. */
  size: number
  entries: { x: number; y: number; text: string; item: LegendItem }[]
  more: { x: number; y: number; count: number } | null
}

const SWATCH = 10
const ROW = 18
const MAX_LABEL = 160
const MAX_ROWS = 3

/** Where each entry goes in a `width` × `height` picture. */
export function layoutLegend(items: LegendItem[], placement: LegendPlacement, width: number, height: number): LegendLayout {
  const entries: LegendLayout['entries'] = []
  if (placement === 'right') {
    const column = Math.min(MAX_LABEL, Math.max(60, width * 0.25))
    const fit = Math.max(1, Math.floor((height - 8) / ROW))
    const shown = items.length > fit ? fit - 1 : items.length
    let widest = 0
    for (let i = 0; i < shown; i++) {
      const text = truncate(items[i].label, column - SWATCH - 6, FONT_SIZE)
      widest = Math.max(widest, textWidth(text, FONT_SIZE))
      entries.push({ x: 0, y: 8 + i * ROW, text, item: items[i] })
    }
    const size = Math.ceil(SWATCH + 6 + widest + 16)
    for (const e of entries) e.x = width - size + 8
    const more = shown < items.length ? { x: width - size + 8, y: 8 + shown * ROW, count: items.length - shown } : null
    return { placement, size, entries, more }
  }
  const start = 8
  let x = start
  let row = 0
  let more: LegendLayout['more'] = null
  for (let i = 0; i < items.length; i++) {
    const text = truncate(items[i].label, MAX_LABEL, FONT_SIZE)
    const w = SWATCH + 5 + textWidth(text, FONT_SIZE) + 14
    if (x > start && x + w > width) {
      row++
      x = start
    }
    // keep room for "+N more" on the last row
    if (row === MAX_ROWS - 1 && i < items.length - 1 && x + w + 70 > width) row = MAX_ROWS
    if (row >= MAX_ROWS) {
      const last = entries.at(-1)
      more = { x: last ? last.x + SWATCH + 5 + textWidth(last.text, FONT_SIZE) + 14 : start, y: (MAX_ROWS - 1) * ROW, count: items.length - i }
      break
    }
    entries.push({ x, y: row * ROW, text, item: items[i] })
    x += w
  }
  const rows = Math.min(row + 1, MAX_ROWS)
  const size = items.length ? rows * ROW + 8 : 0
  const top = placement === 'top' ? 4 : height - size + 8
  for (const e of entries) e.y += top
  if (more) more.y += top
  return { placement, size, entries, more }
}

/** The legend as SVG markup. */
export function legendSvg(layout: LegendLayout): string {
  const parts = layout.entries.map(({ x, y, text, item }) => {
    const swatch = item.shape === 'line'
      ? `<line x1="0" x2="${SWATCH}" y1="${SWATCH / 2}" y2="${SWATCH / 2}" stroke="${escapeHtml(item.color)}" stroke-width="2.5" stroke-linecap="round"/>`
      : `<rect width="${SWATCH}" height="${SWATCH}" rx="2" fill="${escapeHtml(item.color)}"/>`
    const title = text !== item.label ? `<title>${escapeHtml(item.label)}</title>` : ''
    return `<g class="sl-legend-item" transform="translate(${x.toFixed(1)},${y})">${title}${swatch}<text x="${SWATCH + 5}" y="${SWATCH - 1}">${escapeHtml(text)}</text></g>`
  })
  if (layout.more) {
    parts.push(`<text x="${layout.more.x.toFixed(1)}" y="${layout.more.y + SWATCH - 1}" fill="${MUTED_TEXT}">+${layout.more.count} more</text>`)
  }
  return `<g class="sl-legend" data-mark="legend">${parts.join('')}</g>`
}
