/**
 * The pivot table as a semantic <table>: column groups as header rows (repeated labels merged with colspan), row
 * groups as row headers (merged with rowspan), numbers right-aligned, totals in the last row and column.
 */
import { formatNumber } from '../format/number.ts'
import { escapeHtml } from '../format/text.ts'
import { htmlBox } from '../html.ts'
import { GRID_COLOR, MUTED_TEXT } from '../theme.ts'
import type { Size } from '../types.ts'
import type { PivotOptions } from './options.ts'
import type { PivotData } from './prepare.ts'

const CELL = `padding:5px 10px;border:1px solid ${GRID_COLOR}`
const HEAD = `${CELL};background:#f9fafb;font-weight:600;text-align:left`
const NUM = `${CELL};text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap`

/** How many keys from `index` on share their first `depth + 1` parts (the span of a merged header). */
function span(keys: string[][], index: number, depth: number): number {
  let n = 1
  const same = (a: string[], b: string[]) => a.slice(0, depth + 1).every((v, i) => v === b[i])
  while (index + n < keys.length && same(keys[index], keys[index + n])) n++
  return n
}

function starts(keys: string[][], index: number, depth: number): boolean {
  return index === 0 || keys[index].slice(0, depth + 1).some((v, i) => v !== keys[index - 1][i])
}

export function pivotHtml(data: PivotData, options: PivotOptions, size: Size): string {
  const fmt = (v: number | null) => (v === null ? '' : escapeHtml(formatNumber(v, options.numberFormat)))
  const rowHeads = Math.max(1, data.rowAttrs.length)
  // with a single value column (no column groups) a totals column would repeat it; likewise a single row
  const rowTotals = options.rowTotals && data.colAttrs.length > 0
  const colTotals = options.colTotals && data.rowAttrs.length > 0
  const head: string[] = []
  data.colAttrs.forEach((attr, depth) => {
    const cells = [`<th colspan="${rowHeads}" style="${HEAD};text-align:right;color:${MUTED_TEXT}" scope="row">${escapeHtml(attr)}</th>`]
    data.colKeys.forEach((key, i) => {
      if (!starts(data.colKeys, i, depth)) return
      cells.push(`<th scope="col" colspan="${span(data.colKeys, i, depth)}" style="${HEAD}">${escapeHtml(key[depth])}</th>`)
    })
    if (rowTotals && depth === 0) cells.push(`<th scope="col" rowspan="${data.colAttrs.length + 1}" style="${HEAD}">Totals</th>`)
    head.push(`<tr>${cells.join('')}</tr>`)
  })
  const attrCells = data.rowAttrs.length
    ? data.rowAttrs.map((a) => `<th scope="col" style="${HEAD}">${escapeHtml(a)}</th>`).join('')
    : `<th style="${HEAD}"></th>`
  const valueHeads = data.colAttrs.length ? data.colKeys.map(() => `<th style="${HEAD}"></th>`).join('') : `<th scope="col" style="${HEAD}">${escapeHtml(data.valueTitle)}</th>`
  head.push(`<tr>${attrCells}${valueHeads}</tr>`)

  const body = data.rowKeys.map((key, r) => {
    const labels = data.rowAttrs.length
      ? key.map((v, depth) => (starts(data.rowKeys, r, depth)
        ? `<th scope="row" rowspan="${span(data.rowKeys, r, depth)}" style="${HEAD};font-weight:500;vertical-align:top">${escapeHtml(v)}</th>`
        : '')).join('')
      : `<th scope="row" style="${HEAD};font-weight:500">${escapeHtml(data.valueTitle)}</th>`
    const values = data.cells[r].map((v) => `<td style="${NUM}">${fmt(v)}</td>`).join('')
    const total = rowTotals ? `<td style="${NUM};font-weight:600">${fmt(data.rowTotals[r])}</td>` : ''
    return `<tr>${labels}${values}${total}</tr>`
  })
  if (colTotals) {
    const totals = data.colTotals.map((v) => `<td style="${NUM};font-weight:600">${fmt(v)}</td>`).join('')
    const grand = rowTotals ? `<td style="${NUM};font-weight:700">${fmt(data.grandTotal)}</td>` : ''
    body.push(`<tr><th scope="row" colspan="${rowHeads}" style="${HEAD}">Totals</th>${totals}${grand}</tr>`)
  }
  const omitted = data.omitted.rows || data.omitted.cols
    ? `<p style="color:${MUTED_TEXT};margin:6px 2px">Not shown: ${data.omitted.rows} row groups, ${data.omitted.cols} column groups.</p>`
    : ''
  const table = `<table style="border-collapse:collapse">${`<thead>${head.join('')}</thead>`}<tbody>${body.join('')}</tbody></table>`
  return htmlBox('pivot', `Pivot table of ${data.valueTitle}`, size, table + omitted)
}
