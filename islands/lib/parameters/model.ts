/**
 * Pure helpers of the parameter inputs: what counts as a pending edit, the multi-select summary, and the
 * conversions between canonical parameter dates and what native date inputs hold.
 */
import { formatDate, normalizeValue, parseAccepted, type DatePrecision, type ParameterDefinition } from '../../../src/shared/parameters/index.ts'

/** The granularity a date picker works in: `p_datetype` chooses it for dates, the switch for switchable ranges. */
export type DateUnit = 'day' | 'week' | 'month' | 'year'

export const RANGE_UNITS: readonly DateUnit[] = ['day', 'week', 'month', 'year']

/** Spec 2 §9: at most 3 tags, each cut at 10 characters, then "+N more". */
export const MAX_CHIPS = 3
export const CHIP_LENGTH = 10

/** Spec 2 §5: the time picker moves in steps of 5 minutes. */
export const MINUTE_STEP_SECONDS = 300

/**
 * True when an edit changes what would be applied. Both sides are normalised first, so typing and then
 * restoring the text, or writing `7.0` for `7`, is not an edit.
 *
 * @example
 * isChanged({ name: 'n', title: 'N', type: 'number' }, '7.0', 7) // false
 */
export function isChanged(def: ParameterDefinition, edited: unknown, applied: unknown): boolean {
  return JSON.stringify(normalizeValue(def, edited)) !== JSON.stringify(normalizeValue(def, applied))
}

/** @example truncateLabel('Scandinavia') // 'Scandinavi…' */
export function truncateLabel(label: string, length = CHIP_LENGTH): string {
  return label.length > length ? `${label.slice(0, length)}…` : label
}

/**
 * What a closed multi-select shows: the first chosen labels, shortened, and how many more there are.
 *
 * @example
 * chipSummary(['a', 'b', 'c', 'd', 'e']) // { chips: ['a', 'b', 'c'], more: 2 }
 */
export function chipSummary(labels: readonly string[]): { chips: string[]; more: number } {
  return { chips: labels.slice(0, MAX_CHIPS).map((label) => truncateLabel(label)), more: Math.max(0, labels.length - MAX_CHIPS) }
}

/**
 * The text of a native date or datetime-local input for a canonical value; empty when it is not a date.
 *
 * @example
 * toNativeInput('2024-03-05 10:20', 'minute') // '2024-03-05T10:20'
 */
export function toNativeInput(value: unknown, precision: DatePrecision): string {
  const date = parseAccepted(value)
  return date === null ? '' : formatDate(date, precision).replace(' ', 'T')
}

/** The canonical value of a native input's text (the inputs write `T` between date and time). */
export function fromNativeInput(text: string, precision: DatePrecision): string | null {
  const date = parseAccepted(text)
  return date === null ? null : formatDate(date, precision)
}

/** The native input a date unit is picked with; years are typed, since browsers have no year picker. */
export function unitInputType(unit: DateUnit): 'date' | 'month' | 'number' {
  return unit === 'month' ? 'month' : unit === 'year' ? 'number' : 'date'
}

/** @example unitInputValue('month', '2024-03-05') // '2024-03' */
export function unitInputValue(unit: DateUnit, value: unknown): string {
  const day = toNativeInput(value, 'day')
  if (day === '') return ''
  return unit === 'month' ? day.slice(0, 7) : unit === 'year' ? day.slice(0, 4) : day
}

function utcDay(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0)
  date.setUTCFullYear(year, monthIndex, day)
  return date
}

/** The date a unit input's text stands for, or null; years outside four digits are not dates. */
function unitDate(unit: DateUnit, text: string): Date | null {
  if (unit === 'year') return /^\d{4}$/.test(text.trim()) ? utcDay(Number(text), 0, 1) : null
  return parseAccepted(unit === 'month' ? `${text}-01` : text)
}

/**
 * The first (or last) day of the unit that the input's text falls in, as a canonical date. Weeks start on
 * Sunday, as the dynamic ranges do.
 *
 * @example
 * unitBoundary('week', '2024-03-13', 'start') // '2024-03-10'
 * unitBoundary('month', '2024-02', 'end') // '2024-02-29'
 */
export function unitBoundary(unit: DateUnit, text: string, side: 'start' | 'end'): string | null {
  const date = unitDate(unit, text)
  if (date === null) return null
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()]
  const end = side === 'end'
  switch (unit) {
    case 'day':
      return formatDate(date, 'day')
    case 'week': {
      const sunday = d - date.getUTCDay()
      return formatDate(utcDay(y, m, end ? sunday + 6 : sunday), 'day')
    }
    case 'month':
      return formatDate(end ? utcDay(y, m + 1, 0) : utcDay(y, m, 1), 'day')
    case 'year':
      return formatDate(end ? utcDay(y, 11, 31) : utcDay(y, 0, 1), 'day')
  }
}
