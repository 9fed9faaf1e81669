import type { Cell, Column, ColumnType } from './runner.ts'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/
const INTEGER = /^[+-]?\d+$/
const FLOAT = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/

/** Whether a string looks like an ISO date (`date`) or timestamp (`datetime`); null otherwise. */
export function temporalType(value: string): 'date' | 'datetime' | null {
  if (DATE.test(value)) return Number.isNaN(Date.parse(value)) ? null : 'date'
  if (DATETIME.test(value)) return Number.isNaN(Date.parse(value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'))) ? null : 'datetime'
  return null
}

/**
 * The type of one value as it arrived from an engine or a JSON document: JavaScript types decide, and strings are
 * only promoted to `date`/`datetime` when they look like ISO 8601. Null for null/undefined.
 */
export function typeOfValue(value: unknown): ColumnType | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'bigint') return 'integer'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float'
  if (value instanceof Date) return 'datetime'
  if (typeof value === 'string') return temporalType(value) ?? 'string'
  return 'string'
}

/**
 * The established tool's `guess_type` for untyped text (CSV-like sources): numbers, booleans and dates are
 * recognised inside strings too. `""` is a string.
 */
export function guessType(value: unknown): ColumnType | null {
  if (typeof value !== 'string') return typeOfValue(value)
  const s = value.trim()
  if (s === '') return 'string'
  if (INTEGER.test(s)) return 'integer'
  if (FLOAT.test(s)) return 'float'
  if (/^(true|false)$/i.test(s)) return 'boolean'
  return temporalType(s) ?? 'string'
}

/** Combines two observed types of one column: integer+float is float, date+datetime is datetime, other mixes string. */
export function mergeTypes(a: ColumnType | null, b: ColumnType | null): ColumnType | null {
  if (a === null || a === b) return b ?? a
  if (b === null) return a
  const pair = new Set([a, b])
  if (pair.has('integer') && pair.has('float')) return 'float'
  if (pair.has('date') && pair.has('datetime')) return 'datetime'
  return 'string'
}

/** Column types from sample rows (arrays), using `guess` per value and merging across rows. */
export function inferTypes(rows: Iterable<Cell[]>, width: number, guess: (v: unknown) => ColumnType | null = typeOfValue): (ColumnType | null)[] {
  const types: (ColumnType | null)[] = new Array(width).fill(null)
  for (const row of rows) for (let i = 0; i < width; i++) types[i] = mergeTypes(types[i], guess(row[i]))
  return types
}

/**
 * Columns as the established tool stores them: duplicate names renamed `name`, `name1`, `name2`… (its
 * `fetch_columns`), so rows can be turned into objects without losing a value.
 */
export function makeColumns(columns: { name: string; type: ColumnType | null }[]): Column[] {
  const seen = new Set<string>()
  return columns.map(({ name, type }) => {
    let unique = name
    for (let n = 1; seen.has(unique); n++) unique = `${name}${n}`
    seen.add(unique)
    return { name: unique, friendly_name: unique, type }
  })
}
