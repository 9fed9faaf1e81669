/**
 * The cohort grid as a table: cohort and size on the left, one column per stage, each cell its share shaded in
 * `steps` bands from the `min` to the `max` colour (bands, not a smooth ramp, so similar shares read as equal).
 */
import { formatNumber } from '../format/number.ts'
import { escapeHtml } from '../format/text.ts'
import { htmlBox } from '../html.ts'
import { bandColor, contrastText, GRID_COLOR, MUTED_TEXT } from '../theme.ts'
import type { Size } from '../types.ts'
import type { CohortOptions } from './options.ts'
import type { CohortData } from './prepare.ts'

const CELL = `padding:5px 8px;border:1px solid #fff;text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap`
const HEAD = `padding:5px 8px;border-bottom:2px solid ${GRID_COLOR};font-weight:600;text-align:right;white-space:nowrap`

export function cohortHtml(data: CohortData, options: CohortOptions, size: Size): string {
  if (!data.cohorts.length) return htmlBox('cohort', 'Cohort', size, `<p style="color:${MUTED_TEXT};padding:8px">No data to show</p>`)
  const unit = { daily: 'Day', weekly: 'Week', monthly: 'Month' }[options.timeInterval]
  const head = `<tr><th scope="col" style="${HEAD};text-align:left">Cohort</th><th scope="col" style="${HEAD}">Size</th>` +
    data.stages.map((s) => `<th scope="col" style="${HEAD}">${unit} ${s}</th>`).join('') + '</tr>'
  // one style per band, computed once; tooltips only where a person could hover them all (not on 10,000 cells)
  const { min, max, steps } = options.colors
  const bandStyles = Array.from({ length: steps }, (_, band) => {
    const bg = bandColor((band + 0.5) / steps, min, max, steps)
    return `${CELL};background:${bg};color:${contrastText(bg)}`
  })
  const styleOf = (share: number) => bandStyles[Math.min(steps - 1, Math.max(0, Math.floor(share * steps)))]
  const tooltips = options.showTooltips && data.cohorts.length * data.stages.length <= 2000
  const rows = data.cohorts.map((c) => {
    const cells = c.cells.map((cell) => {
      if (!cell) return `<td style="${CELL}"></td>`
      const text = cell.share === null ? formatNumber(cell.value, options.numberFormat) : formatNumber(cell.share, options.percentFormat)
      const tip = tooltips ? ` title="${escapeHtml(`${formatNumber(cell.value, options.numberFormat)} of ${c.total === null ? '?' : formatNumber(c.total, options.numberFormat)}`)}"` : ''
      return `<td style="${styleOf(cell.share ?? 0)}"${tip}>${escapeHtml(text)}</td>`
    }).join('')
    const total = c.total === null ? '' : escapeHtml(formatNumber(c.total, options.numberFormat))
    return `<tr><th scope="row" style="${CELL};text-align:left;font-weight:500">${escapeHtml(c.label)}</th><td style="${CELL}">${total}</td>${cells}</tr>`
  }).join('')
  const { cohorts, stages } = data.omitted
  const note = cohorts || stages ? `<p style="color:${MUTED_TEXT};margin:6px 2px">Not shown: ${cohorts} older cohorts, ${stages} later stages.</p>` : ''
  return htmlBox('cohort', `Cohort retention by ${unit.toLowerCase()}`, size, `<table style="border-collapse:collapse"><thead>${head}</thead><tbody>${rows}</tbody></table>${note}`)
}
