/**
 * Parameter values in the page address, so that a link reproduces what its author saw. Keys are the
 * parameter name behind a prefix: `p_` for queries and dashboards, `p_w{widgetId}_` for widget-level ones.
 */
import { isMultiValue, isRangeType, type ParameterDefinition, type ParameterValue, type ParameterValues } from './types.ts'
import { isEmptyValue, normalizeValue, rangeEnds } from './values.ts'

const RANGE_SEPARATOR = '--'

function readRange(params: URLSearchParams, key: string): unknown {
  const joined = params.get(key)
  if (joined !== null) {
    const ends = joined.split(RANGE_SEPARATOR)
    // Anything that does not split in two is a dynamic value such as d_last_7_days (or invalid).
    return ends.length === 2 ? ends : joined
  }
  // The older form, still found in saved links.
  const start = params.get(`${key}.start`)
  const end = params.get(`${key}.end`)
  return start !== null && end !== null ? [start, end] : undefined
}

/** Multi-value parameters are written as JSON arrays; a plain text value is still read as one item. */
function readMultiValue(raw: string): unknown {
  try {
    const parsed: unknown = JSON.parse(raw)
    return Array.isArray(parsed) ? parsed : raw
  } catch {
    return raw
  }
}

/**
 * The values the address sets, normalised for each definition; parameters the address does not mention are
 * left out, so the caller keeps their current or default values.
 *
 * @example
 * const defs = [{ name: 'period', title: 'Period', type: 'date-range' }]
 * valuesFromSearchParams(defs, new URLSearchParams('p_period=2024-01-01--2024-01-31'))
 * // { period: { start: '2024-01-01', end: '2024-01-31' } }
 */
export function valuesFromSearchParams(
  defs: readonly ParameterDefinition[],
  params: URLSearchParams,
  prefix = 'p_',
): Record<string, ParameterValue> {
  const values: Record<string, ParameterValue> = {}
  for (const def of defs) {
    const key = `${prefix}${def.name}`
    let raw: unknown
    if (isRangeType(def.type)) raw = readRange(params, key)
    else if (params.has(key)) raw = isMultiValue(def) ? readMultiValue(params.get(key) ?? '') : params.get(key)
    if (raw !== undefined) values[def.name] = normalizeValue(def, raw)
  }
  return values
}

function writeValue(def: ParameterDefinition, value: unknown): string | null {
  if (isEmptyValue(value)) return null
  if (isRangeType(def.type) && typeof value !== 'string') {
    const ends = rangeEnds(value)
    return ends === null ? null : `${String(ends[0])}${RANGE_SEPARATOR}${String(ends[1])}`
  }
  if (Array.isArray(value)) return JSON.stringify(value)
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null
}

/**
 * Address parameters for the values of the given definitions; empty values are left out so that clearing
 * a value removes it from the address.
 *
 * @example
 * const defs = [{ name: 'tags', title: 'Tags', type: 'enum', enumOptions: 'a\nb', multiValuesOptions: {} }]
 * searchParamsFromValues(defs, { tags: ['a', 'b'] }).toString() // 'p_tags=%5B%22a%22%2C%22b%22%5D'
 */
export function searchParamsFromValues(
  defs: readonly ParameterDefinition[],
  values: ParameterValues,
  prefix = 'p_',
): URLSearchParams {
  const params = new URLSearchParams()
  for (const def of defs) {
    const written = Object.hasOwn(values, def.name) ? writeValue(def, values[def.name]) : null
    if (written !== null) params.set(`${prefix}${def.name}`, written)
  }
  return params
}
