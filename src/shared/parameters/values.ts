/**
 * Client-side normalisation of parameter values (what an input holds after the user, the address or a
 * stored default set it), and query safety.
 */
import { formatDate, parseAccepted } from './dates.ts'
import { isDynamicValue } from './dynamic.ts'
import { toFiniteNumber } from './numbers.ts'
import { findPlaceholders } from './parse.ts'
import {
  effectiveType,
  enumOptionList,
  isDateType,
  isMultiValue,
  isRangeType,
  precisionOf,
  type DateRangeValue,
  type DateType,
  type ParameterDefinition,
  type ParameterValue,
  type RangeType,
} from './types.ts'

type Scalar = string | number

const isScalar = (value: unknown): value is Scalar => typeof value === 'string' || typeof value === 'number'

/** True when a value counts as not given: undefined, null, an empty string or an empty list. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/**
 * The two ends of a range given as {start, end} or as a two-item list; null for any other shape.
 *
 * @example
 * rangeEnds(['2024-01-01', '2024-01-31']) // ['2024-01-01', '2024-01-31']
 */
export function rangeEnds(value: unknown): [unknown, unknown] | null {
  if (Array.isArray(value)) return value.length === 2 ? [value[0], value[1]] : null
  if (typeof value === 'object' && value !== null && 'start' in value && 'end' in value) {
    return [value.start, value.end]
  }
  return null
}

function normalizeText(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : null
}

function normalizeEnum(def: ParameterDefinition, value: unknown): ParameterValue {
  const options = enumOptionList(def)
  if (options.length === 0) return null
  if (isMultiValue(def)) {
    const chosen = (Array.isArray(value) ? value : [value]).filter(isScalar).map(String)
    // The user's order is kept, not the options' order, so the address reflects what was picked.
    const valid = [...new Set(chosen)].filter((item) => options.includes(item))
    return valid.length > 0 ? valid : null
  }
  return isScalar(value) && options.includes(String(value)) ? String(value) : (options[0] ?? null)
}

function normalizeQueryDropdown(def: ParameterDefinition, value: unknown): ParameterValue {
  if (isEmptyValue(value)) return null
  if (isMultiValue(def)) {
    const items = (Array.isArray(value) ? value : [value]).filter(isScalar).filter((item) => item !== '')
    return items.length > 0 ? items : null
  }
  const first: unknown = Array.isArray(value) ? value[0] : value
  return isScalar(first) && first !== '' ? first : null
}

function normalizeDate(type: DateType, value: unknown): string | null {
  if (isDynamicValue(type, value)) return value
  const date = parseAccepted(value)
  return date === null ? null : formatDate(date, precisionOf(type))
}

function normalizeRange(type: RangeType, value: unknown): string | DateRangeValue | null {
  if (isDynamicValue(type, value)) return value
  const ends = rangeEnds(value)
  if (ends === null) return null
  const [start, end] = ends.map(parseAccepted)
  if (!start || !end) return null
  return { start: formatDate(start, precisionOf(type)), end: formatDate(end, precisionOf(type)) }
}

/**
 * The value an input of this parameter holds for a raw value, or null when it is empty:
 * - number: a finite number, anything non-numeric becomes null;
 * - text: the text, an empty string becomes null;
 * - enum: a value among the options, otherwise the first option; multi-value keeps only valid options;
 * - query dropdown: a list when multi-value, otherwise the first item;
 * - dates: the canonical format of the type (YYYY-MM-DD, YYYY-MM-DD HH:mm, YYYY-MM-DD HH:mm:ss) or a
 *   dynamic `d_` value; invalid dates become null;
 * - ranges: {start, end} from {start, end} or a two-item list, or a dynamic `d_` range.
 *
 * @example
 * normalizeValue({ name: 'n', title: 'N', type: 'number' }, 'abc') // null
 * normalizeValue({ name: 'c', title: 'C', type: 'enum', enumOptions: 'a\nb' }, 'z') // 'a'
 * normalizeValue({ name: 'd', title: 'D', type: 'date' }, '2024-03-05 10:20') // '2024-03-05'
 */
export function normalizeValue(def: ParameterDefinition, value: unknown): ParameterValue {
  const type = effectiveType(def.type)
  if (isDateType(type)) return normalizeDate(type, value)
  if (isRangeType(type)) return normalizeRange(type, value)
  switch (type) {
    case 'number':
      return toFiniteNumber(value)
    case 'enum':
      return normalizeEnum(def, value)
    case 'query':
      return normalizeQueryDropdown(def, value)
    default:
      return normalizeText(value)
  }
}

/**
 * True when no parameter takes free text, so anyone allowed to view the query may run it with their own
 * values (shared dashboards, embeds, view-only sources). Unknown types count as text. When the query text
 * is given, a placeholder without a definition also counts as text, because `applyParameters` inserts its
 * value as given.
 *
 * @example
 * isSafe([{ name: 'n', title: 'N', type: 'number' }]) // true
 * isSafe([{ name: 'n', title: 'N', type: 'number' }], 'select {{ n }}, {{ other }}') // false
 */
export function isSafe(defs: readonly ParameterDefinition[], text?: string): boolean {
  if (defs.some((def) => effectiveType(def.type) === 'text')) return false
  if (text === undefined) return true
  const defined = new Set(defs.map((def) => def.name))
  return findPlaceholders(text).every((placeholder) => defined.has(placeholder.name))
}
