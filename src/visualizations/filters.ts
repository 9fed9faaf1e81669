/**
 * Result filters (spec 1 §5): a column whose name holds `::filter` or `__filter` gives a single-choice filter, and
 * `::multi-filter`, `__multi-filter`, `::multiFilter` or `__multiFilter` a multi-choice one. Every visualization type
 * draws the filtered rows, so filtering happens once, before `prepare`.
 */
import { cleanColumnName, toDate, valueKey } from './data.ts'
import type { DataColumn, Row } from './types.ts'

export interface Filter {
  /** The column name, suffix included: the key of the selection. */
  name: string
  friendlyName: string
  multiple: boolean
  /** Distinct values, sorted (numbers and dates in order, text alphabetically). */
  values: unknown[]
  /** The default selection: the first row's value, as the established tool chooses. */
  current: unknown[]
}

const FILTER = /(?:::|__)(filter|multi-filter|multiFilter)$/

/** The filter a column defines, or null. */
export function filterKind(name: string): 'single' | 'multiple' | null {
  const m = FILTER.exec(name)
  if (!m) return null
  return m[1] === 'filter' ? 'single' : 'multiple'
}

function compareValues(a: unknown, b: unknown): number {
  if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const da = typeof a === 'string' ? toDate(a) : null
  const db = typeof b === 'string' ? toDate(b) : null
  if (da && db) return da.getTime() - db.getTime()
  return valueKey(a).localeCompare(valueKey(b), 'en', { numeric: true })
}

/** The filters a result defines, with their values. */
export function deriveFilters(columns: DataColumn[], rows: Row[]): Filter[] {
  return columns.flatMap((column): Filter[] => {
    const kind = filterKind(column.name)
    if (!kind) return []
    const seen = new Map<string, unknown>()
    for (const row of rows) {
      const v = row[column.name]
      const key = valueKey(v)
      if (!seen.has(key)) seen.set(key, v)
    }
    const values = [...seen.values()].sort(compareValues)
    const first = rows.length ? [rows[0][column.name]] : []
    return [{ name: column.name, friendlyName: cleanColumnName(column.name), multiple: kind === 'multiple', values, current: first }]
  })
}

// A selection may hold strings where rows hold numbers or booleans (values that went through a URL or a <select>)
function matches(rowValue: unknown, selected: unknown): boolean {
  if (selected === rowValue) return true
  if (valueKey(selected) === valueKey(rowValue)) return true
  const a = typeof rowValue === 'string' ? toDate(rowValue) : null
  const b = typeof selected === 'string' ? toDate(selected) : null
  return !!a && !!b && a.getTime() === b.getTime()
}

/**
 * The rows whose value matches one of the selected values for every filter. A filter without a selection uses its
 * default; a multi-filter with an empty selection keeps no rows, as in the established tool.
 */
export function applyFilters(rows: Row[], filters: Filter[], selection: Record<string, unknown[]> = {}): Row[] {
  if (!filters.length) return rows
  const chosen = filters.map((f) => {
    const picked = selection[f.name] ?? f.current
    return { name: f.name, values: f.multiple ? picked : picked.slice(0, 1) }
  })
  return rows.filter((row) => chosen.every((f) => f.values.some((v) => matches(row[f.name], v))))
}
