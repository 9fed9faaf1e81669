/**
 * Reading cell values. Query results are JSON, so dates arrive as strings and numbers sometimes as strings (DECIMAL
 * columns); these helpers turn them into numbers and instants the same way on the server and in the browser.
 */
import type { DataColumn, DataSet, Row } from './types.ts'

export type ValueKind = 'number' | 'date' | 'boolean' | 'string'

// YYYY-MM-DD, optionally followed by a time and an optional zone (Z, +09:00, +0900, +09)
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/** Rows as records keyed by column name, whether they arrived as records or as arrays in column order. */
export function normalizeData(input: { columns?: DataColumn[]; rows?: unknown[] } | null | undefined): DataSet {
  const columns = (input?.columns ?? []).filter((c): c is DataColumn => typeof c?.name === 'string')
  const rows = (input?.rows ?? []).map((row): Row => {
    if (Array.isArray(row)) return Object.fromEntries(columns.map((c, i) => [c.name, row[i]]))
    return row && typeof row === 'object' ? (row as Row) : {}
  })
  return { columns, rows }
}

/** A finite number, or null. Numeric strings count (DECIMAL columns arrive as strings); booleans do not. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    return Number.isFinite(n) ? n : null
  }
  return null
}

const digit = (s: string, i: number) => s.charCodeAt(i) - 48
const digits = (s: string, i: number, n: number) => {
  let v = 0
  for (let k = 0; k < n; k++) {
    const d = digit(s, i + k)
    if (d < 0 || d > 9) return -1
    v = v * 10 + d
  }
  return v
}

/**
 * Epoch milliseconds of the API's own timestamp format (`2024-03-11T07:30:00.000Z`, what toISOString writes), read
 * digit by digit: a chart of 100,000 timestamps spends most of its preparation here otherwise. Anything else: NaN.
 */
function canonicalTime(s: string): number {
  if (s.length !== 24 || s.charCodeAt(10) !== 84 || s.charCodeAt(23) !== 90) return Number.NaN
  const y = digits(s, 0, 4)
  const mo = digits(s, 5, 2)
  const d = digits(s, 8, 2)
  const h = digits(s, 11, 2)
  const mi = digits(s, 14, 2)
  const sec = digits(s, 17, 2)
  const ms = digits(s, 20, 3)
  if (Math.min(y, mo, d, h, mi, sec, ms) < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return Number.NaN
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  if (d > (mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31)) return Number.NaN
  return Date.UTC(y, mo - 1, d, h, mi, sec, ms)
}

/** Like `toDate`, as epoch milliseconds (NaN for no date), without making a Date. */
export function toTime(value: unknown): number {
  if (typeof value === 'string') {
    const fast = canonicalTime(value)
    if (!Number.isNaN(fast)) return fast
  }
  return toDate(value)?.getTime() ?? Number.NaN
}

/**
 * An instant, or null. A timestamp without a zone is read as UTC, and every date is drawn in UTC: the picture is
 * the same whatever the server's or viewer's time zone, and a `date` column never shifts to the previous day.
 * Timestamps with an offset are converted to the same instant in UTC.
 */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null
  if (typeof value !== 'string') return null
  const fast = canonicalTime(value)
  if (!Number.isNaN(fast)) return new Date(fast)
  const m = ISO.exec(value.trim())
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m
  const ms = frac ? Math.round(Number(frac) * 1000) : 0
  let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms)
  // Date.UTC rolls 2024-13-45 over into 2025; such text is not a date
  const check = new Date(time)
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1
    const digits = zone.slice(1).replace(':', '')
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000
  }
  return Number.isNaN(time) ? null : new Date(time)
}

/** What a column holds: its declared type first, else a look at its first non-empty values. */
export function columnKind(column: DataColumn | undefined, rows: Row[]): ValueKind {
  switch (column?.type) {
    case 'integer': case 'float': case 'number': return 'number'
    case 'datetime': case 'date': return 'date'
    case 'boolean': return 'boolean'
  }
  if (!column) return 'string'
  let seen = 0
  let numbers = 0
  let dates = 0
  let booleans = 0
  for (const row of rows) {
    const v = row[column.name]
    if (v == null || v === '') continue
    seen++
    if (typeof v === 'boolean') booleans++
    else if (toNumber(v) !== null) numbers++
    else if (toDate(v) !== null) dates++
    if (seen >= 100) break
  }
  if (!seen || column.type === 'string') return 'string'
  if (booleans === seen) return 'boolean'
  if (numbers === seen) return 'number'
  return dates === seen ? 'date' : 'string'
}

const FILTER_SUFFIXES = ['filter', 'multi-filter', 'multiFilter']

/** A column's name without a `::filter`-style suffix (spec 1 §5), as people should read it. */
export function cleanColumnName(name: string): string {
  const sep = name.includes('::') ? '::' : name.includes('__') ? '__' : null
  if (!sep) return name
  const parts = name.split(sep)
  if (parts[0] === '' && parts.length === 2) return parts[1]
  return FILTER_SUFFIXES.includes(parts[1]) ? parts[0] : name
}

/** The label for a column: its friendly name when the API sent one, else its clean name. */
export function columnLabel(column: DataColumn): string {
  return column.friendly_name && column.friendly_name !== column.name ? column.friendly_name : cleanColumnName(column.name)
}

/** Text for a value used as a label or category (null becomes "null", as the established tool shows it). */
export function valueKey(value: unknown): string {
  if (value == null) return 'null'
  if (value instanceof Date) return value.toISOString()
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}
