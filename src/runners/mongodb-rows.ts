import { Binary, BSONRegExp, Decimal128, Long, ObjectId, Timestamp } from 'bson'
import { makeColumns, mergeTypes } from './column-types.ts'
import type { Cell, Column, ColumnType } from './runner.ts'

/*
 * MongoDB documents as rows, as the established tool shows them: a sub-document's fields become columns of their own
 * (`address.city`), one level deep, or all the way down with list items by index (`items.0.sku`) when the source's
 * Flatten Results is on; object ids as their hex text, dates as ISO timestamps.
 */

type Doc = Record<string, unknown>

const isDocument = (v: unknown): v is Doc =>
  !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && !('_bsontype' in (v as object)) && !(v instanceof RegExp) && !Buffer.isBuffer(v)

/** A BSON value as plain JSON. */
export function plain(v: unknown): Cell {
  if (v === null || v === undefined) return null
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString()
  if (v instanceof ObjectId) return v.toHexString()
  if (v instanceof Long) return v.toNumber() <= Number.MAX_SAFE_INTEGER && v.toNumber() >= Number.MIN_SAFE_INTEGER ? v.toNumber() : v.toString()
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  if (v instanceof Decimal128 || v instanceof BSONRegExp || v instanceof RegExp || v instanceof Timestamp) return String(v)
  if (v instanceof Binary) return Buffer.from(v.buffer).toString('base64')
  if (Array.isArray(v)) return v.map(plain)
  if (isDocument(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
  if (typeof v === 'object' && 'toString' in v) return String(v)
  return v as Cell
}

/** The column type of a value as the driver read it: the BSON type decides, not how a string looks. */
export function mongoType(v: unknown): ColumnType | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'float'
  if (v instanceof Long || typeof v === 'bigint') return 'integer'
  if (v instanceof Date) return 'datetime'
  return 'string'
}

/** A document's fields as (name, raw value) pairs, flattened one level or, with `deep`, all the way. */
export function flatten(doc: Doc, deep: boolean): [string, unknown][] {
  const out: [string, unknown][] = []
  const walk = (prefix: string, value: unknown) => {
    if (isDocument(value) && Object.keys(value).length) for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v)
    else if (Array.isArray(value) && value.length) value.forEach((v, i) => walk(`${prefix}.${i}`, v))
    else out.push([prefix, value])
  }
  for (const [k, v] of Object.entries(doc)) {
    if (deep) walk(k, v)
    else if (isDocument(v) && Object.keys(v).length) for (const [ik, iv] of Object.entries(v)) out.push([`${k}.${ik}`, iv])
    else out.push([k, v])
  }
  return out
}

export interface Shape {
  columns: Column[]
  /** Turns a document into a row of the columns (fields outside them are left out). */
  row(doc: Doc): Cell[]
}

/**
 * The columns of a result, from its first documents: in the order fields first appear, or as the query's `fields`
 * orders them (by their projection value, leaving the rest out), or by name when `sortColumns` asks.
 */
export function shapeOf(sample: Doc[], deep: boolean, fields?: Record<string, unknown>, sortColumns?: 'asc' | 'desc'): Shape {
  const types = new Map<string, ColumnType | null>()
  for (const doc of sample) {
    for (const [name, value] of flatten(doc, deep)) types.set(name, types.has(name) ? mergeTypes(types.get(name)!, mongoType(value)) : mongoType(value))
  }
  let names = [...types.keys()]
  if (fields) {
    const wanted = Object.entries(fields).filter(([, v]) => v !== 0 && v !== false).sort(([, a], [, b]) => Number(a) - Number(b)).map(([k]) => k)
    if (wanted.length) names = wanted.flatMap((f) => names.filter((n) => n === f || n.startsWith(`${f}.`)))
  }
  if (sortColumns) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0) * (sortColumns === 'desc' ? -1 : 1))
  const index = new Map(names.map((n, i) => [n, i]))
  return {
    columns: makeColumns(names.map((name) => ({ name, type: types.get(name) ?? 'string' }))),
    row(doc) {
      const cells: Cell[] = new Array(names.length).fill(null)
      for (const [name, value] of flatten(doc, deep)) {
        const i = index.get(name)
        if (i !== undefined) cells[i] = plain(value)
      }
      return cells
    },
  }
}
