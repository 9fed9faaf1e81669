/** One record as a definition list (<dl>): names on the left, values on the right, and which row this is. */
import { escapeHtml } from '../format/text.ts'
import { htmlBox } from '../html.ts'
import { GRID_COLOR, MUTED_TEXT } from '../theme.ts'
import type { Size } from '../types.ts'
import type { DetailsData } from './prepare.ts'

export function detailsHtml(data: DetailsData, size: Size): string {
  if (!data.fields.length) return htmlBox('details', 'Details', size, `<p style="color:${MUTED_TEXT};padding:8px">No rows</p>`)
  const items = data.fields.map((f) => {
    const title = f.description ? ` title="${escapeHtml(f.description)}"` : ''
    return `<div style="display:grid;grid-template-columns:minmax(90px,35%) 1fr;gap:12px;padding:6px 10px;border-bottom:1px solid ${GRID_COLOR}">` +
      `<dt${title} style="color:${MUTED_TEXT};font-weight:500;overflow:hidden;text-overflow:ellipsis">${escapeHtml(f.title)}</dt>` +
      `<dd style="margin:0;overflow-wrap:anywhere">${f.html}</dd></div>`
  }).join('')
  const position = data.rows > 1
    ? `<div class="sl-details-position" style="padding:8px 10px;color:${MUTED_TEXT};text-align:right">Row ${data.row} of ${data.rows.toLocaleString('en')}</div>`
    : ''
  return htmlBox('details', `Details of row ${data.row}`, size, `<dl style="margin:0">${items}</dl>${position}`)
}
