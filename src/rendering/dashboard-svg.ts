import { bodyRuns, COLORS, type Run } from './card-text.ts'
import { svgSize } from './draw.ts'
import { FONT_FAMILY } from './fonts.ts'
import { GRID_PX, gridBoxes, type Box } from './layout.ts'
import { fitText } from './measure.ts'
import { svgToPngAsync } from './raster.ts'
import type { DrawnDashboard } from './types.ts'

const MARGIN = 16
/** A card's inner layout in grid pixels: its inset from the grid cell, title band, and padding. */
export const CARD = { inset: 8, title: 40, padding: 16 } as const

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** The body of a card (where its chart or text goes), from the card's box. */
export function cardBody(box: Pick<Box, 'x' | 'y' | 'width' | 'height'>) {
  const x = box.x + CARD.inset + CARD.padding
  const y = box.y + CARD.inset + CARD.title
  return { x, y, width: box.width - 2 * (CARD.inset + CARD.padding), height: box.height - 2 * CARD.inset - CARD.title - CARD.padding / 2 }
}

export function runSvg(run: Run, ox: number, oy: number): string {
  if (run.kind === 'rule') return `<rect x="${ox + run.x}" y="${oy + run.y}" width="${run.width}" height="1" fill="${run.color}"/>`
  const anchor = run.anchor && run.anchor !== 'start' ? ` text-anchor="${run.anchor}"` : ''
  return `<text x="${(ox + run.x).toFixed(1)}" y="${(oy + run.y).toFixed(1)}" font-size="${run.size.toFixed(1)}"${run.bold ? ' font-weight="bold"' : ''} fill="${run.color}"${anchor}>${escape(run.text)}</text>`
}

/** A chart's own SVG placed in a body, shrunk (never grown) to fit it. */
function chartSvg(svg: string, body: ReturnType<typeof cardBody>): string {
  const size = svgSize(svg) ?? { width: body.width, height: body.height }
  const k = Math.min(1, body.width / size.width, body.height / size.height)
  return `<g transform="translate(${body.x} ${body.y}) scale(${k.toFixed(4)})">${svg}</g>`
}

function cardSvg(box: Box): string {
  const { widget } = box
  const x = box.x + CARD.inset
  const y = box.y + CARD.inset
  const parts = [`<rect x="${x}" y="${y}" width="${box.width - 2 * CARD.inset}" height="${box.height - 2 * CARD.inset}" rx="6" fill="#fff" stroke="${COLORS.border}"/>`]
  const body = cardBody(box)
  if (widget.kind !== 'text') {
    const title = widget.kind === 'restricted' ? 'Restricted' : widget.title
    parts.push(`<text x="${x + CARD.padding}" y="${y + 26}" font-size="15" font-weight="bold" fill="${COLORS.title}">${escape(fitText(title, body.width, 15, 'bold'))}</text>`)
  } else {
    body.y -= CARD.title - CARD.padding
    body.height += CARD.title - CARD.padding
  }
  if (widget.kind === 'chart' && widget.svg) parts.push(chartSvg(widget.svg, body))
  else parts.push(...bodyRuns(widget, body.width, body.height).map((run) => runSvg(run, body.x, body.y)))
  return parts.join('')
}

/**
 * The whole dashboard as one SVG picture, laid out as its page: its name above, each widget's card in its place on
 * the grid, charts as drawn, text boxes, counters and tables as text.
 */
export function dashboardSvg(d: DrawnDashboard): string {
  const boxes = gridBoxes(d.widgets)
  const gridHeight = Math.max(GRID_PX.rowHeight, ...boxes.map((b) => b.y + b.height))
  // as wide as the grid's widgets reach (a lone visualization's card is drawn alone)
  const gridWidth = Math.max(GRID_PX.width / 2, ...boxes.map((b) => b.x + b.width))
  const header = d.name ? GRID_PX.header : 0
  const width = gridWidth + 2 * MARGIN
  const height = gridHeight + header + 2 * MARGIN
  const top = MARGIN + header
  const cards = boxes.map((b) => cardSvg({ ...b, x: b.x + MARGIN, y: b.y + top })).join('')
  const title = d.name
    ? `<text x="${MARGIN + CARD.inset}" y="${MARGIN + 26}" font-size="22" font-weight="bold" fill="${COLORS.title}">${escape(fitText(d.name, gridWidth, 22, 'bold'))}</text>`
    : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">`
    + `<rect width="${width}" height="${height}" fill="#f9fafb"/>` + title + cards + '</svg>'
}

/** The dashboard's picture as a PNG (scale 1 by default: 1,232 pixels wide). */
export function dashboardPng(d: DrawnDashboard, opts: { scale?: number } = {}): Promise<Buffer> {
  return svgToPngAsync(dashboardSvg(d), { scale: opts.scale ?? 1, background: '#f9fafb' })
}
