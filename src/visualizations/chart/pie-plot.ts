/**
 * Pies and donuts as SVG: several pies share the space in a grid, each slice carries its share as a label when
 * there is room, a donut shows its total in the hole, and the legend names the slices.
 */
import { formatNumber } from '../format/number.ts'
import { escapeHtml, textWidth, truncate } from '../format/text.ts'
import { emptySvg, frameSvg, type Area } from '../frame.ts'
import { arcCentroid, arcPath } from '../marks/arc.ts'
import { contrastText, FONT_SIZE, MUTED_TEXT, TEXT_COLOR } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import type { ChartOptions } from './options.ts'
import type { Pie, PieData } from './pie-prepare.ts'

const TITLE = 20

/** Columns of a grid for `count` pies in `area`, chosen so each pie gets the largest radius. */
export function pieGrid(count: number, area: Area): { columns: number; rows: number; radius: number } {
  let best = { columns: 1, rows: count, radius: 0 }
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns)
    const radius = Math.min(area.width / columns, area.height / rows - (count > 1 ? TITLE : 0)) / 2 - 6
    if (radius > best.radius) best = { columns, rows, radius }
  }
  return best
}

function pieMarkup(pie: Pie, hole: number, cx: number, cy: number, radius: number, options: ChartOptions, titled: boolean): string {
  const inner = radius * hole
  const parts: string[] = []
  if (titled) {
    const name = truncate(pie.name, radius * 2 + 20, FONT_SIZE + 1)
    parts.push(`<text x="${cx}" y="${cy - radius - 8}" text-anchor="middle" font-weight="600">${escapeHtml(name)}</text>`)
  }
  for (const s of pie.slices) {
    const tip = `${s.label}: ${formatNumber(s.value, options.numberFormat)} (${formatNumber(s.share, options.percentFormat)})`
    parts.push(`<path class="sl-slice" d="${arcPath(cx, cy, inner, radius, s.startAngle, s.endAngle)}" fill="${escapeHtml(s.color)}" stroke="#fff" stroke-width="1"><title>${escapeHtml(tip)}</title></path>`)
  }
  for (const s of pie.slices) {
    const text = formatNumber(s.share, options.percentFormat)
    const labelRadius = inner ? (inner + radius) / 2 : radius * 0.65
    // a label needs the arc at its radius to be wider than the text
    if ((s.endAngle - s.startAngle) * labelRadius < textWidth(text, 10) + 6 || radius - inner < 22) continue
    const [x, y] = arcCentroid(cx, cy, labelRadius, s.startAngle, s.endAngle)
    parts.push(`<text x="${x.toFixed(1)}" y="${(y + 3.5).toFixed(1)}" text-anchor="middle" font-size="10" fill="${contrastText(s.color)}">${escapeHtml(text)}</text>`)
  }
  if (inner > 28) {
    parts.push(`<text x="${cx}" y="${cy - 2}" text-anchor="middle" font-size="${Math.min(22, inner / 3).toFixed(0)}" font-weight="600" fill="${TEXT_COLOR}">${escapeHtml(formatNumber(pie.total, '0.[0]a'))}</text>`)
    parts.push(`<text x="${cx}" y="${cy + 14}" text-anchor="middle" fill="${MUTED_TEXT}">Total</text>`)
  }
  return `<g class="sl-pie">${parts.join('')}</g>`
}

/** The pies as an SVG string. */
export function pieSvg(data: PieData, options: ChartOptions, size: Size, _env: RenderEnv): string {
  const pies = data.pies.filter((p) => p.total > 0)
  if (!pies.length) return emptySvg(size, 'chart')
  const placement = options.legend.placement === 'auto' ? (size.width >= size.height * 1.2 ? 'right' : 'top') : options.legend.placement
  return frameSvg(size, {
    label: `${data.hole ? 'Donut' : 'Pie'} chart of ${pies.map((p) => p.name).join(', ')}`,
    type: 'chart',
    legend: options.legend.enabled ? data.legend : [],
    placement,
    draw: (area) => {
      const grid = pieGrid(pies.length, area)
      const cellW = area.width / grid.columns
      const cellH = area.height / grid.rows
      const titled = pies.length > 1
      return pies.map((pie, i) => {
        const cx = area.x + cellW * ((i % grid.columns) + 0.5)
        const cy = area.y + cellH * (Math.floor(i / grid.columns) + 0.5) + (titled ? TITLE / 2 : 0)
        return pieMarkup(pie, data.hole, Math.round(cx), Math.round(cy), Math.max(10, grid.radius), options, titled)
      }).join('')
    },
  })
}
