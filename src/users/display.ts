import { texts } from '../shared/texts.ts'

/**
 * Dates on the server-rendered user pages: a day in the organization's date format (spec 3 §3 date_format) and
 * how long ago something happened. Days are UTC (the server does not know the reader's time zone); <time> carries
 * the exact instant.
 */
export function formatDay(isoValue: string, dateFormat: string): string {
  const d = new Date(isoValue)
  const pad = (n: number) => String(n).padStart(2, '0')
  const year = String(d.getUTCFullYear())
  return dateFormat
    .replace('YYYY', year)
    .replace('YY', year.slice(2))
    .replace('MM', pad(d.getUTCMonth() + 1))
    .replace('DD', pad(d.getUTCDate()))
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000], ['month', 30 * 86_400_000], ['week', 7 * 86_400_000], ['day', 86_400_000],
  ['hour', 3_600_000], ['minute', 60_000],
]
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/** "3 hours ago", "yesterday", "just now". */
export function timeAgo(isoValue: string, now = Date.now()): string {
  const elapsed = now - new Date(isoValue).getTime()
  if (elapsed < 60_000) return texts.users.justNow
  for (const [unit, ms] of UNITS) {
    if (elapsed >= ms) return relative.format(-Math.floor(elapsed / ms), unit)
  }
  return texts.users.justNow
}
