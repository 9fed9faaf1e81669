/**
 * A legend boxed in a corner of the map, as the established tool places it (over the sea, where it hides least).
 * Chart legends take a strip beside the drawing; a map keeps all of its room and the box sits on top.
 */
import { escapeHtml, textWidth, truncate } from '../format/text.ts'
import type { Area } from '../frame.ts'
import type { LegendItem } from '../legend.ts'
import { FONT_SIZE, MUTED_TEXT } from '../theme.ts'

export type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right'

const ROW = 17
const SWATCH = 11
const PAD = 7
const MARGIN = 8

/** The legend box in `corner` of `area` (its markup and the room it covers); entries that do not fit the height become "+N more". */
export function cornerLegend(items: LegendItem[], corner: Corner, area: Area, align: 'left' | 'center' | 'right' = 'left'): { svg: string; box: Area } {
  if (!items.length) return { svg: '', box: { x: area.x, y: area.y, width: 0, height: 0 } }
  const fit = Math.max(1, Math.floor((area.height - 2 * MARGIN - 2 * PAD) / ROW))
  const shown = items.length > fit ? items.slice(0, fit - 1) : items
  const more = items.length - shown.length
  const labels = shown.map((i) => truncate(i.label, Math.min(180, area.width * 0.4), FONT_SIZE))
  const textSpace = Math.max(...labels.map((l) => textWidth(l, FONT_SIZE)), more ? textWidth(`+${more} more`, FONT_SIZE) : 0)
  const width = Math.ceil(PAD * 2 + SWATCH + 6 + textSpace)
  const height = (shown.length + (more ? 1 : 0)) * ROW + PAD * 2 - 4
  const x = corner.endsWith('left') ? area.x + MARGIN : area.x + area.width - MARGIN - width
  const y = corner.startsWith('top') ? area.y + MARGIN : area.y + area.height - MARGIN - height
  const anchor = align === 'right' ? 'end' : align === 'center' ? 'middle' : 'start'
  const textX = align === 'right' ? width - PAD : align === 'center' ? (PAD + SWATCH + 6 + width - PAD) / 2 : PAD + SWATCH + 6
  const rows = shown.map((item, i) => {
    const title = labels[i] !== item.label ? `<title>${escapeHtml(item.label)}</title>` : ''
    const ty = PAD + i * ROW
    return `<g class="sl-legend-item">${title}<rect x="${PAD}" y="${ty}" width="${SWATCH}" height="${SWATCH}" rx="2" fill="${escapeHtml(item.color)}" stroke="rgba(0,0,0,0.15)"/>` +
      `<text x="${textX}" y="${ty + SWATCH - 1.5}" text-anchor="${anchor}">${escapeHtml(labels[i])}</text></g>`
  })
  if (more) rows.push(`<text x="${PAD + SWATCH + 6}" y="${PAD + shown.length * ROW + SWATCH - 1.5}" fill="${MUTED_TEXT}">+${more} more</text>`)
  const svg = `<g class="sl-legend" data-mark="legend" transform="translate(${x.toFixed(1)},${y.toFixed(1)})">` +
    `<rect width="${width}" height="${height}" rx="4" fill="#ffffff" fill-opacity="0.88" stroke="#d1d5db"/>${rows.join('')}</g>`
  return { svg, box: { x, y, width, height } }
}
