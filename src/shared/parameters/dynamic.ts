/**
 * Dynamic date values (`d_now`, `d_last_7_days`, …): stored as their `d_` name and turned into concrete
 * dates only when a query runs.
 *
 * The arithmetic follows the established tool's client (moment with the default English locale), computed
 * in UTC so that server and browsers agree:
 * - weeks start on Sunday; `endOf` a unit is its last millisecond (formatted down to the type's precision);
 * - month and year steps keep the day of month, clamped to the target month (31 March − 1 month = 29 Feb);
 * - `last_N_days` / `last_12_months` run from the start of the day N days (12 months) ago to the end of today;
 *   `last_hour`, `last_8_hours`, `last_24_hours` run from that many hours ago to now.
 * That client knew only `now` and `yesterday` for single dates; `last_week`, `last_month` and `last_year`
 * continue the same pattern: the moment one week, month or year before now.
 */
import { texts } from '../texts.ts'
import { formatDate } from './dates.ts'
import { isDateType, isRangeType, precisionOf, type DateRangeValue } from './types.ts'

export const DYNAMIC_PREFIX = 'd_'

export type DynamicDateKey = keyof typeof texts.dynamicDates
export type DynamicRangeKey = keyof typeof texts.dynamicRanges

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

const addMs = (date: Date, ms: number): Date => new Date(date.getTime() + ms)
const addDays = (date: Date, days: number): Date => addMs(date, days * DAY_MS)

function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime())
  result.setUTCDate(1)
  result.setUTCMonth(result.getUTCMonth() + months)
  const lastDay = new Date(result.getTime())
  lastDay.setUTCMonth(lastDay.getUTCMonth() + 1, 0)
  result.setUTCDate(Math.min(date.getUTCDate(), lastDay.getUTCDate()))
  return result
}

function startOfDay(date: Date): Date {
  const result = new Date(date.getTime())
  result.setUTCHours(0, 0, 0, 0)
  return result
}

const endOfDay = (date: Date): Date => addMs(startOfDay(date), DAY_MS - 1)
const startOfWeek = (date: Date): Date => startOfDay(addDays(date, -date.getUTCDay()))
const endOfWeek = (date: Date): Date => endOfDay(addDays(startOfWeek(date), 6))

function startOfMonth(date: Date): Date {
  const result = startOfDay(date)
  result.setUTCDate(1)
  return result
}

const endOfMonth = (date: Date): Date => addMs(addMonths(startOfMonth(date), 1), -1)

function startOfYear(date: Date): Date {
  const result = startOfDay(date)
  result.setUTCMonth(0, 1)
  return result
}

const endOfYear = (date: Date): Date => addMs(addMonths(startOfYear(date), 12), -1)

const DYNAMIC_DATES: Record<DynamicDateKey, (now: Date) => Date> = {
  now: (now) => now,
  yesterday: (now) => addDays(now, -1),
  last_week: (now) => addDays(now, -7),
  last_month: (now) => addMonths(now, -1),
  last_year: (now) => addMonths(now, -12),
}

const hoursUntilNow = (hours: number) => (now: Date): [Date, Date] => [addMs(now, -hours * HOUR_MS), now]
const daysUntilToday = (days: number) => (now: Date): [Date, Date] => [startOfDay(addDays(now, -days)), endOfDay(now)]

const DYNAMIC_RANGES: Record<DynamicRangeKey, (now: Date) => [Date, Date]> = {
  today: (now) => [startOfDay(now), endOfDay(now)],
  yesterday: (now) => [startOfDay(addDays(now, -1)), endOfDay(addDays(now, -1))],
  this_week: (now) => [startOfWeek(now), endOfWeek(now)],
  this_month: (now) => [startOfMonth(now), endOfMonth(now)],
  this_year: (now) => [startOfYear(now), endOfYear(now)],
  last_week: (now) => [startOfWeek(addDays(now, -7)), endOfWeek(addDays(now, -7))],
  last_month: (now) => [startOfMonth(addMonths(now, -1)), endOfMonth(addMonths(now, -1))],
  last_year: (now) => [startOfYear(addMonths(now, -12)), endOfYear(addMonths(now, -12))],
  last_hour: hoursUntilNow(1),
  last_8_hours: hoursUntilNow(8),
  last_24_hours: hoursUntilNow(24),
  last_7_days: daysUntilToday(7),
  last_14_days: daysUntilToday(14),
  last_30_days: daysUntilToday(30),
  last_60_days: daysUntilToday(60),
  last_90_days: daysUntilToday(90),
  last_12_months: (now) => [startOfDay(addMonths(now, -12)), endOfDay(now)],
}

/** The key after `d_` when the value is a dynamic value of that table, else null. */
function dynamicKey<Key extends string>(table: Record<Key, unknown>, value: unknown): Key | null {
  if (typeof value !== 'string' || !value.startsWith(DYNAMIC_PREFIX)) return null
  const key = value.slice(DYNAMIC_PREFIX.length)
  return Object.hasOwn(table, key) ? (key as Key) : null
}

/**
 * True when the value is a dynamic value that parameters of this type accept: the single-date names for
 * date types, the range names for range types.
 *
 * @example
 * isDynamicValue('date', 'd_yesterday') // true
 * isDynamicValue('date', 'd_last_7_days') // false
 * isDynamicValue('date-range', 'd_last_7_days') // true
 */
export function isDynamicValue(type: string, value: unknown): value is string {
  if (isDateType(type)) return dynamicKey(DYNAMIC_DATES, value) !== null
  if (isRangeType(type)) return dynamicKey(DYNAMIC_RANGES, value) !== null
  return false
}

/**
 * The concrete value of a dynamic value at `now`, in the canonical format of the type: a string for date
 * types, {start, end} for range types. Null when the value is not a dynamic value of that type. The type is
 * needed because `d_yesterday`, `d_last_week`, `d_last_month` and `d_last_year` mean a day for a date and a
 * whole period for a range.
 *
 * @example
 * const now = new Date('2024-03-13T10:20:30Z') // a Wednesday
 * resolveDynamic('datetime-local', 'd_yesterday', now) // '2024-03-12 10:20'
 * resolveDynamic('date-range', 'd_this_week', now) // { start: '2024-03-10', end: '2024-03-16' }
 * resolveDynamic('date-range', 'd_last_7_days', now) // { start: '2024-03-06', end: '2024-03-13' }
 */
export function resolveDynamic(type: string, value: unknown, now: Date): string | DateRangeValue | null {
  if (isDateType(type)) {
    const key = dynamicKey(DYNAMIC_DATES, value)
    return key === null ? null : formatDate(DYNAMIC_DATES[key](now), precisionOf(type))
  }
  if (isRangeType(type)) {
    const key = dynamicKey(DYNAMIC_RANGES, value)
    if (key === null) return null
    const [start, end] = DYNAMIC_RANGES[key](now)
    return { start: formatDate(start, precisionOf(type)), end: formatDate(end, precisionOf(type)) }
  }
  return null
}

/** A choice offered by a date or range picker. */
export interface DynamicOption {
  /** The stored value, e.g. `d_last_7_days`. */
  value: string
  /** The Korean label from the message catalogue. */
  label: string
}

/**
 * The dynamic values a picker offers for the type, in catalogue order; none for other types.
 *
 * @example
 * dynamicOptions('date')[0] // { value: 'd_now', label: '지금' }
 */
export function dynamicOptions(type: string): DynamicOption[] {
  const labels: Record<string, string> | null = isDateType(type)
    ? texts.dynamicDates
    : isRangeType(type)
      ? texts.dynamicRanges
      : null
  if (labels === null) return []
  return Object.entries(labels).map(([key, label]) => ({ value: DYNAMIC_PREFIX + key, label }))
}
