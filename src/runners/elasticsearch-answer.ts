import type { Cell, ColumnType, TableSchema } from './runner.ts'

/*
 * Elasticsearch's answers read as the established tool reads them: a _search answer's hits (their `_source` and
 * `fields`, one-item lists unwrapped) or, when it has them, its aggregations (a row per leaf bucket, carrying its
 * parents' keys); an index's mappings as dotted property paths; and the SQL endpoints' type names as column types.
 */

/** Elasticsearch's field and SQL type names. */
export function esColumnType(type: string): ColumnType {
  const t = type.toLowerCase()
  if (['long', 'integer', 'short', 'byte', 'unsigned_long'].includes(t)) return 'integer'
  if (['double', 'float', 'half_float', 'scaled_float'].includes(t)) return 'float'
  if (t === 'boolean') return 'boolean'
  if (['datetime', 'date', 'timestamp', 'date_nanos'].includes(t)) return 'datetime'
  return 'string'
}

/** The type of a value, as the established tool types a _search answer's columns (by the first value seen). */
export function valueType(value: unknown): ColumnType | null {
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float'
  if (typeof value === 'string') return 'string'
  return value === null || value === undefined ? null : 'string'
}

/** Rows as name → value, and the column names in the order they were first seen. */
export class RowSet {
  readonly names: string[] = []
  readonly rows: Record<string, unknown>[] = []
  private seen = new Set<string>()

  add(row: Record<string, unknown>) {
    for (const name of Object.keys(row)) {
      if (!this.seen.has(name)) {
        this.seen.add(name)
        this.names.push(name)
      }
    }
    this.rows.push(row)
  }

  /** Columns typed by their first non-null value; rows as arrays in the columns' order. */
  table(only?: string[]): { columns: { name: string; type: ColumnType | null }[]; rows: Cell[][] } {
    const names = only?.length ? only : this.names
    const columns = names.map((name) => ({ name, type: valueType(this.rows.find((r) => r[name] != null)?.[name]) }))
    return { columns, rows: this.rows.map((r) => names.map((n) => (r[n] ?? null) as Cell)) }
  }
}

interface Hit { _source?: Record<string, unknown>; fields?: Record<string, unknown> }

const unwrap = (v: unknown) => (Array.isArray(v) && v.length === 1 ? v[0] : v)

function bucketRows(out: RowSet, name: string, agg: Record<string, unknown>, parent: Record<string, unknown>) {
  const buckets = agg.buckets
  const list = Array.isArray(buckets) ? buckets : buckets && typeof buckets === 'object' ? Object.entries(buckets).map(([key, b]) => ({ key, ...(b as object) })) : null
  if (!list) {
    // a metric at this level: its values beside the parent's keys
    const row = { ...parent }
    for (const [k, v] of Object.entries(agg)) if (v === null || typeof v !== 'object') row[`${name}.${k}`] = v
    out.add(row)
    return
  }
  for (const bucket of list as Record<string, unknown>[]) {
    const row: Record<string, unknown> = { ...parent, [name]: bucket.key_as_string ?? bucket.key }
    const nested: [string, Record<string, unknown>][] = []
    for (const [k, v] of Object.entries(bucket)) {
      if (k === 'key' || k === 'key_as_string') continue
      if (v === null || typeof v !== 'object') row[`${name}.${k}`] = v
      else if ('buckets' in (v as object)) nested.push([k, v as Record<string, unknown>])
      else for (const [sub, sv] of Object.entries(v as object)) if (sv === null || typeof sv !== 'object') row[`${name}.${k}.${sub}`] = sv
    }
    if (!nested.length) out.add(row)
    for (const [k, v] of nested) bucketRows(out, k, v, row)
  }
}

/** A _search answer's rows: its aggregations when it has any, else its hits. Null when it has neither. */
export function searchRows(answer: { hits?: { hits?: Hit[] }; aggregations?: Record<string, unknown> }): RowSet | null {
  const out = new RowSet()
  if (answer.aggregations && Object.keys(answer.aggregations).length) {
    for (const [name, agg] of Object.entries(answer.aggregations)) bucketRows(out, name, agg as Record<string, unknown>, {})
    return out
  }
  if (!answer.hits?.hits) return null
  for (const hit of answer.hits.hits) {
    const row: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(hit._source ?? {})) row[k] = unwrap(v)
    for (const [k, v] of Object.entries(hit.fields ?? {})) row[k] = unwrap(v)
    out.add(row)
  }
  return out
}

type Properties = Record<string, { type?: string; properties?: Properties }>

function paths(properties: Properties, prefix: string, into: { name: string; type?: string }[]) {
  for (const [name, p] of Object.entries(properties)) {
    if (p.properties) paths(p.properties, `${prefix}${name}.`, into)
    else into.push({ name: `${prefix}${name}`, ...(p.type && { type: p.type }) })
  }
}

/** GET /_mappings → a table per index (hidden `.` indices left out), its properties as dotted paths. */
export function mappingTables(mappings: Record<string, { mappings?: Record<string, unknown> }>): TableSchema[] {
  const tables: TableSchema[] = []
  for (const [index, { mappings: m = {} }] of Object.entries(mappings)) {
    if (index.startsWith('.')) continue
    const columns: { name: string; type?: string }[] = []
    // typeless mappings (7+) have `properties` at the top; older ones one level down, under the document type
    const typed = 'properties' in m ? [m] : Object.values(m)
    for (const t of typed) if (t && typeof t === 'object' && 'properties' in t) paths((t as { properties: Properties }).properties, '', columns)
    tables.push({ name: index, columns })
  }
  return tables.sort((a, b) => a.name.localeCompare(b.name))
}

/** Elasticsearch's and OpenSearch's error bodies, as one line the user reads. */
export function esErrorMessage(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error
  if (!error) return undefined
  if (typeof error === 'string') return error.length > 10_240 ? `${error.slice(0, 10_240)}... continues` : error
  const e = error as { type?: string; reason?: string; details?: string; root_cause?: { type?: string; reason?: string }[] }
  const cause = e.root_cause?.[0]
  const reason = cause?.reason ?? e.reason ?? JSON.stringify(e)
  const type = cause?.type ?? e.type
  return `${type ? `${type}: ` : ''}${reason}${e.details ? ` ${e.details}` : ''}`
}
