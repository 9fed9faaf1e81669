/**
 * The outer SVG every chart shares: size, font, accessible label, the legend, a note when data was thinned, and the
 * drawing (usually Plot's <svg>) placed in the room left over. One function, so every chart type looks the same
 * around its marks.
 */
import { escapeHtml } from './format/text.ts'
import { layoutLegend, legendSvg, type LegendItem, type LegendPlacement } from './legend.ts'
import { FONT_FAMILY, FONT_SIZE, MUTED_TEXT, TEXT_COLOR } from './theme.ts'
import type { Size } from './types.ts'

export interface Area {
  x: number
  y: number
  width: number
  height: number
}

export interface FrameSpec {
  /** What the picture shows, read by screen readers. */
  label: string
  /** The `sl-vis-<type>` class. */
  type: string
  legend?: LegendItem[]
  placement?: LegendPlacement
  /** A line under the drawing, e.g. "Showing 150 of 300 categories". */
  note?: string | null
  /** Markup for the area left after legend and note. */
  draw(area: Area): string
}

const NOTE_HEIGHT = 18

/** The complete SVG document fragment, with `xmlns` so it also stands alone as an .svg file. */
export function frameSvg(size: Size, spec: FrameSpec): string {
  const { width, height } = size
  const area: Area = { x: 0, y: 0, width, height }
  let legend = ''
  if (spec.legend?.length) {
    const layout = layoutLegend(spec.legend, spec.placement ?? 'top', width, height - (spec.note ? NOTE_HEIGHT : 0))
    legend = legendSvg(layout)
    if (layout.placement === 'top') {
      area.y = layout.size
      area.height -= layout.size
    } else if (layout.placement === 'below') area.height -= layout.size
    else area.width -= layout.size
  }
  let note = ''
  if (spec.note) {
    area.height -= NOTE_HEIGHT
    note = `<text class="sl-note" x="${width - 4}" y="${height - 5}" text-anchor="end" fill="${MUTED_TEXT}">${escapeHtml(spec.note)}</text>`
  }
  area.width = Math.max(40, area.width)
  area.height = Math.max(40, area.height)
  return `<svg xmlns="http://www.w3.org/2000/svg" class="sl-vis sl-vis-${spec.type}" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(spec.label)}" ` +
    `font-family="${escapeHtml(FONT_FAMILY)}" font-size="${FONT_SIZE}" fill="${TEXT_COLOR}" ` +
    `style="max-width:100%;height:auto;display:block;background:#fff">` +
    `${legend}${spec.draw(area)}${note}</svg>`
}

/** A picture saying there is nothing to draw, the same size as the chart would be. */
export function emptySvg(size: Size, type: string, message = 'No data to show'): string {
  return frameSvg(size, {
    label: message,
    type,
    draw: ({ width, height }) =>
      `<text x="${width / 2}" y="${height / 2}" text-anchor="middle" fill="${MUTED_TEXT}">${escapeHtml(message)}</text>`,
  })
}

/**
 * Plot's <svg> moved to `area` inside the frame. Plot names its mark groups with `aria-label` (`bar`, `rule`…) but
 * gives them no role, which assistive technology rejects; the frame is one labelled image, so the names move to
 * `data-mark`, where styles and tests still find them.
 */
export function placePlot(plot: Element, area: Area): string {
  plot.setAttribute('x', String(area.x))
  plot.setAttribute('y', String(area.y))
  plot.removeAttribute('aria-label')
  plot.removeAttribute('aria-description')
  for (const labelled of plot.querySelectorAll('[aria-label]')) {
    labelled.setAttribute('data-mark', labelled.getAttribute('aria-label')!)
    labelled.removeAttribute('aria-label')
  }
  return plot.outerHTML
}
