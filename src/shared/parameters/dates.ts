/**
 * Calendar dates for parameters, always in UTC: the server and every browser must turn the same value into
 * the same text, whatever their local time zone.
 */
import type { DatePrecision } from './types.ts'

const CANONICAL: Record<DatePrecision, RegExp> = {
  day: /^(\d{4})-(\d{2})-(\d{2})$/,
  minute: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/,
  second: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/,
}

// What pickers, stored values and API timestamps may hold: any of the three formats, with a space or `T`,
// optional fractions of a second and an optional `Z` (which changes nothing, everything here is UTC).
const ACCEPTED = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?Z?$/

/** Builds the UTC instant of the given fields, or null when they do not name a real calendar moment. */
function utcDate(fields: readonly (string | undefined)[]): Date | null {
  // Missing time fields (a plain date) count as midnight.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = fields.map((field) => Number(field ?? 0))
  if (hour > 23 || minute > 59 || second > 59) return null
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not move years 0–99 into the 1900s.
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, 0)
  const sameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  return sameDay ? date : null
}

/**
 * Reads text written exactly in the canonical format of the precision, as the execution gate demands.
 *
 * @example
 * parseCanonical('2024-02-29', 'day') // Date 2024-02-29T00:00:00Z
 * parseCanonical('2024-02-30', 'day') // null
 * parseCanonical('2024-01-01 10:00', 'day') // null
 */
export function parseCanonical(text: string, precision: DatePrecision): Date | null {
  const match = CANONICAL[precision].exec(text)
  return match ? utcDate(match.slice(1)) : null
}

/**
 * Reads a date the way the pages do: a Date, or text in any accepted format.
 *
 * @example
 * parseAccepted('2024-03-05T10:20:30.000Z') // Date 2024-03-05T10:20:30Z
 * parseAccepted('yesterday') // null
 */
export function parseAccepted(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value
  if (typeof value !== 'string') return null
  const match = ACCEPTED.exec(value.trim())
  return match ? utcDate(match.slice(1)) : null
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0')

/**
 * The canonical text of an instant at the given precision, in UTC.
 *
 * @example
 * formatDate(new Date('2024-03-05T10:20:30Z'), 'minute') // '2024-03-05 10:20'
 */
export function formatDate(date: Date, precision: DatePrecision): string {
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
  if (precision === 'day') return day
  const minute = `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`
  return precision === 'minute' ? minute : `${minute}:${pad(date.getUTCSeconds())}`
}
