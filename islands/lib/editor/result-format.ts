import { formatDateTime, formatDay } from '../../../src/shared/time.ts'
import type { DateFormats, ResultColumn, ResultRow } from './types.ts'

export type SortDirection = 'asc' | 'desc'
export interface SortState {
  column: string
  direction: SortDirection
}

const NUMERIC_TYPES = new Set(['integer', 'float', 'number', 'decimal', 'bigint', 'numeric', 'double', 'real', 'smallint'])

export const isNumericColumn = (column: ResultColumn) => NUMERIC_TYPES.has(String(column.type ?? '').toLowerCase())

/** Nulls last in either direction; numbers by value; everything else by text in natural order. */
function compareValues(a: unknown, b: unknown): number {
  if (a == null) return b == null ? 0 : 1
  if (b == null) return -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  return collator.compare(String(a), String(b))
}
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** Rows in the order of one column; the same array when unsorted, so the table can skip work. */
export function sortRows(rows: ResultRow[], sort: SortState | null): ResultRow[] {
  if (!sort) return rows
  const sign = sort.direction === 'asc' ? 1 : -1
  const { column } = sort
  // nulls stay last whichever way the column is sorted
  return [...rows].sort((x, y) => {
    const a = x[column]
    const b = y[column]
    if (a == null || b == null) return compareValues(a, b)
    return sign * compareValues(a, b)
  })
}

/** A click on a header: ascending, then descending, then back to the server's order. */
export function nextSort(current: SortState | null, column: string): SortState | null {
  if (!current || current.column !== column) return { column, direction: 'asc' }
  return current.direction === 'asc' ? { column, direction: 'desc' } : null
}

/** A date (and time) cell in the organization's formats; a value that is no date is shown as it came. */
export function formatDate(value: string, formats: DateFormats, withTime: boolean): string {
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return value
  return withTime ? formatDateTime(d, formats) : formatDay(d, formats)
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 })

/** How one cell reads: numbers grouped, dates in the org's formats, objects as JSON; null is handled by the caller. */
export function formatCell(value: unknown, column: ResultColumn, formats: DateFormats): string {
  if (value == null) return 'null'
  const type = String(column.type ?? '').toLowerCase()
  if (typeof value === 'number') return numberFormat.format(value)
  if (typeof value === 'string' && (type === 'datetime' || type === 'date')) return formatDate(value, formats, type === 'datetime')
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
