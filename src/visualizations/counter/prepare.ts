/**
 * Rows → the counter: one value picked by row and column (or the row count), an optional target from another cell,
 * and the trend between them as a signed percentage.
 */
import { columnLabel, toNumber, valueKey } from '../data.ts'
import type { DataSet, Row } from '../types.ts'
import type { CounterOptions } from './options.ts'

export interface CounterData {
  label: string
  /** The number, or null when the cell is empty or not a number (then `display` shows it as text). */
  value: number | null
  display: string
  target: { value: number | null; display: string } | null
  /** (value − target) / |target|, when both are numbers and the target is not zero. */
  trend: { direction: 'up' | 'down' | 'flat'; display: string } | null
}

/** The row at a 1-based `position`, negative counting from the end. */
export function rowAt(rows: Row[], position: number): Row | undefined {
  const index = position > 0 ? position - 1 : rows.length + position
  return rows[index]
}

/** A number with fixed decimals and the given decimal and thousands separators. */
export function formatCounterNumber(value: number, o: CounterOptions): string {
  const [whole, fraction] = Math.abs(value).toFixed(o.stringDecimal).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, o.stringThouSep)
  const sign = value < 0 && /[1-9]/.test(whole + (fraction ?? '')) ? '-' : ''
  return `${sign}${o.stringPrefix}${fraction ? grouped + o.stringDecChar + fraction : grouped}${o.stringSuffix}`
}

function display(raw: unknown, n: number | null, o: CounterOptions, formatted: boolean): string {
  if (n === null) return raw == null ? '' : valueKey(raw)
  if (formatted) return formatCounterNumber(n, o)
  return n.toLocaleString('en', { maximumFractionDigits: 10 })
}

export function prepareCounter(o: CounterOptions, data: DataSet): CounterData {
  const names = new Set(data.columns.map((c) => c.name))
  const column = names.has(o.counterColName) ? o.counterColName : data.columns[0]?.name
  const row = rowAt(data.rows, o.rowNumber)
  const raw = o.countRow ? data.rows.length : column && row ? row[column] : null
  const value = toNumber(raw)
  const label = o.counterLabel || (o.countRow ? 'Rows' : '')
  let target: CounterData['target'] = null
  let trend: CounterData['trend'] = null
  const targetRow = rowAt(data.rows, o.targetRowNumber)
  if (o.targetColName && names.has(o.targetColName) && targetRow) {
    const t = toNumber(targetRow[o.targetColName])
    target = { value: t, display: display(targetRow[o.targetColName], t, o, o.formatTargetValue) }
    if (t !== null && t !== 0 && value !== null) {
      const change = (value - t) / Math.abs(t)
      const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'flat'
      trend = { direction, display: `${change > 0 ? '+' : ''}${(change * 100).toFixed(1)}%` }
    }
  }
  const columnName = data.columns.find((c) => c.name === column)
  return {
    label: label || (columnName && !o.countRow ? columnLabel(columnName) : ''),
    value,
    display: display(raw, value, o, true),
    target,
    trend,
  }
}
