/**
 * The server's check of one parameter value against its definition, producing the exact text that will
 * stand in the query. Every type except text is reduced to a closed form (canonical number, one of the
 * options, canonical date) before any query text is built.
 */
import { formatDate, parseCanonical } from './dates.ts'
import { resolveDynamic } from './dynamic.ts'
import { canonicalNumber } from './numbers.ts'
import {
  effectiveType,
  enumOptionList,
  isDateType,
  isRangeType,
  precisionOf,
  type DatePrecision,
  type MultiValuesOptions,
  type ParameterDefinition,
} from './types.ts'
import { rangeEnds } from './values.ts'

/** Options lists of query-dropdown parameters, keyed by the id of the query that supplies them. */
export type DropdownValues = Readonly<Record<string | number, readonly string[]>>

/** What stands in the text for one parameter; null from the checks below means the value is invalid. */
export type ExecutionValue =
  | { kind: 'text'; text: string; verified: boolean }
  | { kind: 'range'; start: string; end: string }

const verified = (text: string): ExecutionValue => ({ kind: 'text', text, verified: true })

const asOptionText = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null

/**
 * Wraps each item in prefix and suffix and joins them. When prefix and suffix are the same quote mark (the
 * editor's single- and double-quote choices), that mark is doubled inside items, so an option such as
 * O'Brien stays one string literal instead of ending it early.
 */
function joinItems(items: readonly string[], options: MultiValuesOptions): string {
  const prefix = options.prefix ?? ''
  const suffix = options.suffix ?? ''
  const quote = prefix === suffix && (prefix === "'" || prefix === '"') ? prefix : null
  const escape = (item: string): string => (quote === null ? item : item.replaceAll(quote, quote + quote))
  return items.map((item) => `${prefix}${escape(item)}${suffix}`).join(options.separator ?? ',')
}

function checkChoice(
  def: ParameterDefinition,
  value: unknown,
  choices: readonly string[] | undefined,
): ExecutionValue | null {
  if (choices === undefined) return null
  if (def.multiValuesOptions != null) {
    const items = (Array.isArray(value) ? value : [value]).map(asOptionText)
    if (items.length === 0 || items.some((item) => item === null || !choices.includes(item))) return null
    return verified(joinItems(items as string[], def.multiValuesOptions))
  }
  const item = asOptionText(value)
  return item !== null && choices.includes(item) ? verified(item) : null
}

function checkDate(precision: DatePrecision, value: unknown): string | null {
  if (typeof value !== 'string') return null
  const date = parseCanonical(value, precision)
  return date === null ? null : formatDate(date, precision)
}

function dropdownChoices(
  def: ParameterDefinition,
  dropdownValues: DropdownValues | undefined,
): readonly string[] | undefined {
  if (def.queryId == null || dropdownValues === undefined) return undefined
  return Object.hasOwn(dropdownValues, String(def.queryId)) ? dropdownValues[String(def.queryId)] : undefined
}

/**
 * A value given for a placeholder that has no definition (ad-hoc queries): taken as given. Lists are joined
 * with commas and {start, end} objects fill `.start` / `.end`, as the established tool does.
 */
function adHocValue(value: unknown): ExecutionValue | null {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return { kind: 'text', text: String(value), verified: false }
  }
  if (Array.isArray(value)) {
    const items = value.map(asOptionText)
    return items.every((item) => item !== null) ? { kind: 'text', text: items.join(','), verified: false } : null
  }
  const ends = rangeEnds(value)
  if (ends && typeof ends[0] === 'string' && typeof ends[1] === 'string') {
    return { kind: 'range', start: ends[0], end: ends[1] }
  }
  return null
}

/**
 * The text for one parameter value, or null when the value does not fit the definition.
 *
 * @example
 * executionValue({ name: 'n', title: 'N', type: 'number' }, '1e3', { now }) // { kind: 'text', text: '1e3', verified: true }
 * executionValue({ name: 'n', title: 'N', type: 'number' }, '1; drop table x', { now }) // null
 */
export function executionValue(
  def: ParameterDefinition | undefined,
  value: unknown,
  context: { now: Date; dropdownValues?: DropdownValues },
): ExecutionValue | null {
  if (def === undefined) return adHocValue(value)
  const type = effectiveType(def.type)
  if (isDateType(type)) {
    const dynamic = resolveDynamic(type, value, context.now)
    if (typeof dynamic === 'string') return verified(dynamic)
    const date = checkDate(precisionOf(type), value)
    return date === null ? null : verified(date)
  }
  if (isRangeType(type)) {
    const dynamic = resolveDynamic(type, value, context.now)
    if (dynamic !== null && typeof dynamic === 'object') return { kind: 'range', ...dynamic }
    const ends = rangeEnds(value)
    if (ends === null) return null
    const [start, end] = ends.map((text) => checkDate(precisionOf(type), text))
    return start && end ? { kind: 'range', start, end } : null
  }
  switch (type) {
    case 'number': {
      const number = canonicalNumber(value)
      return number === null ? null : verified(number)
    }
    case 'enum':
      return checkChoice(def, value, enumOptionList(def))
    case 'query':
      return checkChoice(def, value, dropdownChoices(def, context.dropdownValues))
    default: {
      const text = typeof value === 'string' || typeof value === 'number' ? String(value) : null
      return text === null ? null : { kind: 'text', text, verified: false }
    }
  }
}
