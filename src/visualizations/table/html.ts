/**
 * The table as semantic HTML (<table>, <th scope="col">) with inline styles, so it reads the same in a page, an
 * embed or a screenshot, and a summary of the page shown when there is more than one.
 */
import { escapeHtml } from '../format/text.ts'
import { htmlBox } from '../html.ts'
import { GRID_COLOR, MUTED_TEXT } from '../theme.ts'
import type { Size } from '../types.ts'
import type { TableData } from './prepare.ts'

const CELL = 'padding:6px 10px;vertical-align:top'

export function tableHtml(data: TableData, size: Size): string {
  const head = data.columns.map((c) => {
    const title = c.description ? ` title="${escapeHtml(c.description)}"` : ''
    return `<th scope="col"${title} style="${CELL};text-align:${c.alignContent};font-weight:600;border-bottom:2px solid ${GRID_COLOR};white-space:nowrap;position:sticky;top:0;background:#fff">${escapeHtml(c.title)}</th>`
  }).join('')
  const body = data.rows.map((cells) => `<tr>${cells.map((html, i) => {
    const c = data.columns[i]
    const numeric = c.displayAs === 'number' ? ';font-variant-numeric:tabular-nums;white-space:nowrap' : ''
    return `<td style="${CELL};text-align:${c.alignContent};border-bottom:1px solid ${GRID_COLOR}${numeric}">${html}</td>`
  }).join('')}</tr>`).join('')
  const empty = data.rows.length ? '' : `<tr><td colspan="${Math.max(1, data.columns.length)}" style="${CELL};color:${MUTED_TEXT};text-align:center">${data.search ? 'No rows match the search' : 'No rows'}</td></tr>`
  const first = (data.page - 1) * data.itemsPerPage + 1
  const last = Math.min(data.total, data.page * data.itemsPerPage)
  // spec 2 §5: the pager is hidden when everything fits on one page
  const footer = data.pages > 1
    ? `<div class="sl-table-pager" style="padding:8px 10px;color:${MUTED_TEXT};text-align:right">${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${data.total.toLocaleString('en')} · page ${data.page} of ${data.pages}</div>`
    : ''
  const table = `<table style="border-collapse:collapse;width:100%"><thead><tr>${head}</tr></thead><tbody>${body}${empty}</tbody></table>`
  return htmlBox('table', `Table, ${data.total} rows`, size, table + footer)
}
