/**
 * Dates typed and shown in the organization's formats (`date_format`, `time_format`), so a date parameter reads the
 * way the result tables write dates, whatever the browser's locale would make a native picker show.
 */
import { formatDate, parseAccepted, type DatePrecision } from '../../../src/shared/parameters/index.ts'
import { formatPattern, type DateFormats } from '../../../src/shared/time.ts'

/** The pattern a value of this precision is written in: the date format, with the time format cut or grown to fit. */
export function patternFor(precision: DatePrecision, formats: DateFormats): string {
  if (precision === 'day') return formats.date
  const minutes = formats.time.replace(/[:.]ss(\.SSS)?|[:.]s\b/g, '')
  return `${formats.date} ${precision === 'minute' ? minutes : `${minutes}:ss`}`
}

/** A canonical or native value (`2024-03-05`, `2024-03-05T10:20`) in `pattern`; '' when it is no date. */
export function showDate(value: string, pattern: string): string {
  const date = parseAccepted(value.replace('T', ' '))
  return date ? formatPattern(date, pattern) : ''
}

// what each token of a pattern reads; the other characters of a pattern must be typed as written
const PARTS: Record<string, string> = {
  YYYY: '(\\d{4})', YY: '(\\d{2})', MM: '(\\d{1,2})', M: '(\\d{1,2})', DD: '(\\d{1,2})', D: '(\\d{1,2})',
  HH: '(\\d{1,2})', H: '(\\d{1,2})', mm: '(\\d{1,2})', m: '(\\d{1,2})', ss: '(\\d{1,2})', s: '(\\d{1,2})', SSS: '(\\d{1,3})',
}
const TOKEN = /YYYY|YY|SSS|MM|M|DD|D|HH|H|mm|m|ss|s/g
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')

/**
 * The date typed as `pattern` says (or as the canonical `YYYY-MM-DD[ HH:mm[:ss]]`, which always works), as the
 * native text of the precision (`2024-03-05`, `2024-03-05T10:20`, `2024-03-05T10:20:30`); null when it is no date.
 * Two-digit years are 1969–2068, as moment.js reads them.
 * @example parseTyped('05/03/24', 'DD/MM/YY', 'day') // '2024-03-05'
 */
export function parseTyped(text: string, pattern: string, precision: DatePrecision): string | null {
  const order: string[] = []
  let source = ''
  let last = 0
  for (const match of pattern.matchAll(TOKEN)) {
    source += escape(pattern.slice(last, match.index)) + PARTS[match[0]]
    order.push(match[0])
    last = match.index + match[0].length
  }
  source += escape(pattern.slice(last))
  const found = new RegExp(`^\\s*${source}\\s*$`).exec(text)
  const date = found ? dateOf(order, found.slice(1)) : parseAccepted(text.trim().replace('T', ' '))
  return date ? formatDate(date, precision).replace(' ', 'T') : null
}

function dateOf(order: readonly string[], values: readonly string[]): Date | null {
  const part = (...tokens: string[]) => {
    const at = order.findIndex((t) => tokens.includes(t))
    return at < 0 ? 0 : Number(values[at])
  }
  const short = order.includes('YY') ? part('YY') : null
  const year = short === null ? part('YYYY') : short < 69 ? 2000 + short : 1900 + short
  const [month, day, hour, minute, second] = [part('MM', 'M'), part('DD', 'D'), part('HH', 'H'), part('mm', 'm'), part('ss', 's')]
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    hour < 24 && minute < 60 && second < 60
  return valid ? date : null
}
