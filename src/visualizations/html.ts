/** The wrapper every HTML visualization (table, details, pivot, cohort) shares: font, colour, scrolling in its box. */
import { escapeHtml } from './format/text.ts'
import { FONT_FAMILY, TEXT_COLOR } from './theme.ts'
import type { Size } from './types.ts'

/** The wrapper every HTML visualization uses: font, colour, and scrolling within its box. */
export function htmlBox(type: string, label: string, size: Size, body: string): string {
  return `<div class="sl-vis sl-vis-${type}" role="region" aria-label="${escapeHtml(label)}" style="font-family:${escapeHtml(FONT_FAMILY)};font-size:13px;color:${TEXT_COLOR};max-width:${size.width}px;max-height:${size.height}px;overflow:auto">${body}</div>`
}

