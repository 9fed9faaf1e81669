/**
 * Pure helpers of the Visualization Editor: the draft it edits, the options a new visualization starts with, and
 * immutable updates of nested option keys. Kept free of React and the DOM so they are tested directly.
 */
import { getVisualization } from '../../../src/visualizations/registry.ts'

export interface ResultColumn {
  name: string
  type?: string | null
}

export interface EditorResult {
  columns: ResultColumn[]
  rows: Record<string, unknown>[]
}

export type Options = Record<string, unknown>

/** What the dialog edits: the stored visualization's fields the user can change. */
export interface Draft {
  type: string
  name: string
  options: Options
}

/** The visualization as the API returns it after a save. */
export interface SavedVisualization extends Draft {
  id: number
  query_id?: number
  [key: string]: unknown
}

const NUMERIC_TYPES = new Set(['integer', 'float', 'number', 'decimal'])

/** A column holds numbers: by its declared type, or (untyped) when its first non-empty cells are all numbers. */
export function isNumeric(column: ResultColumn, rows: readonly Record<string, unknown>[] = []): boolean {
  if (column.type) return NUMERIC_TYPES.has(column.type)
  const seen = rows.map((r) => r[column.name]).filter((v) => v !== null && v !== undefined && v !== '').slice(0, 20)
  return seen.length > 0 && seen.every((v) => typeof v === 'number')
}

/** The type's display name ("Chart"), which is also a new visualization's name. */
export const typeName = (type: string) => getVisualization(type)?.name ?? type

/**
 * The options a new visualization of `type` starts with, picked from the result the way people usually want it:
 * a chart plots the first column along x and every other numeric column as a series; a counter shows the first
 * numeric column; a funnel and a pivot take the first text (not date) column as steps or rows and the first
 * number as value; a marker map takes the columns named for latitude and longitude. Everything else starts from
 * the type's own defaults (the renderers already choose sensible columns).
 */
export function defaultOptions(type: string, result: EditorResult | null): Options {
  const columns = result?.columns ?? []
  const rows = result?.rows ?? []
  const numeric = columns.filter((c) => isNumeric(c, rows)).map((c) => c.name)
  // Steps and pivot rows read best as labels; dates make poor ones (they belong on a chart's x axis).
  const text = columns.filter((c) => !isNumeric(c, rows) && !/date|time/.test(c.type ?? '')).map((c) => c.name)
  switch (type) {
    case 'CHART': {
      if (columns.length === 0) return { globalSeriesType: 'column' }
      const [x, ...rest] = columns.map((c) => c.name)
      const columnMapping: Record<string, string> = { [x]: 'x' }
      for (const name of rest) if (numeric.includes(name)) columnMapping[name] = 'y'
      return { globalSeriesType: 'column', columnMapping }
    }
    case 'COUNTER':
      return { counterColName: numeric[0] ?? columns[0]?.name ?? '', rowNumber: 1 }
    case 'FUNNEL':
      return { stepCol: { colName: text[0] ?? '', displayAs: 'Steps' }, valueCol: { colName: numeric[0] ?? '', displayAs: 'Value' } }
    case 'PIVOT':
      return text[0] && numeric[0] ? { rows: [text[0]], vals: [numeric[0]], aggregatorName: 'Sum' } : {}
    case 'MAP':
      return markerColumns(columns.map((c) => c.name), numeric)
    default:
      return {}
  }
}

const LATITUDE = /^(lat|latitude)$/i
const LONGITUDE = /^(lon|lng|long|longitude)$/i

/**
 * A marker map's position columns: those named for latitude and longitude when the result has them (whatever
 * their order), else the first two numeric columns; none when neither is there (the type's defaults, `lat`/`lon`).
 */
function markerColumns(names: readonly string[], numeric: readonly string[]): Options {
  const lat = names.find((n) => LATITUDE.test(n)) ?? numeric.find((n) => !LONGITUDE.test(n))
  const lon = names.find((n) => LONGITUDE.test(n)) ?? numeric.find((n) => n !== lat && !LATITUDE.test(n))
  return { ...(lat && { latColumn: lat }), ...(lon && { lonColumn: lon }) }
}

/** The draft the dialog opens with: the stored visualization, or a new Chart set up from the result. */
export function initialDraft(visualization: Draft | null, result: EditorResult | null): Draft {
  if (visualization) return { type: visualization.type, name: visualization.name, options: { ...visualization.options } }
  return { type: 'CHART', name: typeName('CHART'), options: defaultOptions('CHART', result) }
}

/**
 * Switching the type starts over with that type's options (the old ones mean nothing to it), and renames the
 * visualization only while it still carries the previous type's default name, so a name the user typed stays.
 */
export function switchType(draft: Draft, type: string, result: EditorResult | null): Draft {
  const name = draft.name.trim() === '' || draft.name === typeName(draft.type) ? typeName(type) : draft.name
  return { type, name, options: defaultOptions(type, result) }
}

/** Key order does not matter: options saved by another tool come back with their keys in another order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Options)[k])]))
  }
  return value
}

/** True when closing would lose something: the name or the options differ from what the dialog opened with. */
export function isChanged(initial: Draft, current: Draft): boolean {
  return initial.name !== current.name || initial.type !== current.type ||
    JSON.stringify(canonical(initial.options)) !== JSON.stringify(canonical(current.options))
}

export function getIn(options: Options, path: readonly string[]): unknown {
  let at: unknown = options
  for (const key of path) at = at && typeof at === 'object' ? (at as Options)[key] : undefined
  return at
}

/**
 * A copy of `options` with `value` at `path`, creating objects on the way; `undefined` removes the key, so a
 * cleared field falls back to the type's default instead of storing an empty value. Arrays are indexed by position.
 */
export function setIn(options: Options, path: readonly string[], value: unknown): Options {
  const [key, ...rest] = path
  const copy: Options = Array.isArray(options) ? ([...options] as unknown as Options) : { ...options }
  if (rest.length === 0) {
    if (value === undefined && !Array.isArray(copy)) delete copy[key]
    else copy[key] = value
    return copy
  }
  const child = copy[key]
  copy[key] = setIn(child && typeof child === 'object' ? (child as Options) : {}, rest, value)
  return copy
}

/** The request body for POST /api/visualizations (new) or POST /api/visualizations/{id} (existing). */
export function saveRequest(draft: Draft, queryId: number, id?: number): { path: string; body: Options } {
  const body = { type: draft.type, name: draft.name.trim() || typeName(draft.type), options: draft.options }
  return id === undefined ? { path: '/api/visualizations', body: { query_id: queryId, ...body } } : { path: `/api/visualizations/${id}`, body }
}
