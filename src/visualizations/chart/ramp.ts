/** A colour ramp legend (pale tint → colour) with the lowest and highest value, for heatmaps. */
import { escapeHtml } from '../format/text.ts'
import { MUTED_TEXT, rampColor } from '../theme.ts'

/** SVG for a `width`-pixel ramp at (x, y), labelled with `low` and `high`. */
export function rampLegend(x: number, y: number, width: number, low: string, high: string, color: string): string {
  // the gradient depends only on the colour, so heatmaps of one colour on a page may share one id
  const id = `sl-ramp-${color.replace(/[^0-9a-zA-Z]/g, '')}`
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => `<stop offset="${t}" stop-color="${rampColor(t, color)}"/>`).join('')
  return `<g class="sl-ramp" transform="translate(${x},${y})"><defs><linearGradient id="${id}">${stops}</linearGradient></defs>` +
    `<rect width="${width}" height="8" rx="2" fill="url(#${id})"/>` +
    `<text y="20" fill="${MUTED_TEXT}" font-size="10">${escapeHtml(low)}</text>` +
    `<text x="${width}" y="20" text-anchor="end" fill="${MUTED_TEXT}" font-size="10">${escapeHtml(high)}</text></g>`
}
