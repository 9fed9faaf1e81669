/**
 * Timestamps on the wire and dates as people read them, shared by the server's pages and the islands so both
 * write the same text. Dates are drawn in UTC: the server does not know the reader's time zone, and a page drawn
 * on the server must read the same once an island takes it over.
 */

/** ISO-8601 with milliseconds and `Z`, the timestamp format of every API response. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value == null) return null
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** The organization's `date_format` and `time_format` settings (spec 3 §3), moment.js tokens such as `DD/MM/YY`. */
export interface DateFormats {
  date: string
  time: string
}

/** The formats an organization's settings ask for. */
export function dateFormatsOf(settings: { date_format: string; time_format: string }): DateFormats {
  return { date: settings.date_format, time: settings.time_format }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December']
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const TOKENS = /\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|H|hh|h|mm|m|ss|s|SSS|A|a|Z/g

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function token(t: string, d: Date): string {
  const h = d.getUTCHours()
  switch (t) {
    case 'YYYY': return String(d.getUTCFullYear())
    case 'YY': return pad(d.getUTCFullYear() % 100)
    case 'MMMM': return MONTHS[d.getUTCMonth()]
    case 'MMM': return MONTHS[d.getUTCMonth()].slice(0, 3)
    case 'MM': return pad(d.getUTCMonth() + 1)
    case 'M': return String(d.getUTCMonth() + 1)
    case 'DD': return pad(d.getUTCDate())
    case 'D': return String(d.getUTCDate())
    case 'dddd': return DAYS[d.getUTCDay()]
    case 'ddd': return DAYS[d.getUTCDay()].slice(0, 3)
    case 'HH': return pad(h)
    case 'H': return String(h)
    case 'hh': return pad(h % 12 || 12)
    case 'h': return String(h % 12 || 12)
    case 'mm': return pad(d.getUTCMinutes())
    case 'm': return String(d.getUTCMinutes())
    case 'ss': return pad(d.getUTCSeconds())
    case 's': return String(d.getUTCSeconds())
    case 'SSS': return pad(d.getUTCMilliseconds(), 3)
    case 'A': return h < 12 ? 'AM' : 'PM'
    case 'a': return h < 12 ? 'am' : 'pm'
    case 'Z': return '+00:00'
    default: return t
  }
}

/**
 * `date` written with a moment.js-style `pattern` (the established tool's, e.g. `DD/MM/YY HH:mm`), in UTC; `[text]`
 * is copied as written. An invalid date writes as ''.
 * @example formatPattern(new Date('2024-03-05T14:07:00Z'), 'DD.MM.YYYY HH:mm') // '05.03.2024 14:07'
 */
export function formatPattern(date: Date, pattern = 'YYYY-MM-DD HH:mm'): string {
  if (Number.isNaN(date.getTime())) return ''
  return pattern.replace(TOKENS, (t, literal: string | undefined) => literal ?? token(t, date))
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value))

/** The pattern of an organization's dates, with its time of day or without: what its tables write dates with. */
export function dateTimePattern(formats: DateFormats, withTime: boolean): string {
  return withTime ? `${formats.date} ${formats.time}` : formats.date
}

/** A day in the organization's date format. @example formatDay('2024-03-05T14:07:00Z', { date: 'DD/MM/YY', time: 'HH:mm' }) // '05/03/24' */
export function formatDay(value: Date | string, formats: Pick<DateFormats, 'date'>): string {
  return formatPattern(toDate(value), formats.date)
}

/** An instant in the organization's date and time formats. @example formatDateTime('2024-03-05T14:07:00Z', { date: 'YYYY-MM-DD', time: 'HH:mm' }) // '2024-03-05 14:07' */
export function formatDateTime(value: Date | string, formats: DateFormats): string {
  return formatPattern(toDate(value), dateTimePattern(formats, true))
}
