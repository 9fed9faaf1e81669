import { texts } from '../shared/texts.ts'

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000], ['month', 30 * 86_400_000], ['week', 7 * 86_400_000], ['day', 86_400_000],
  ['hour', 3_600_000], ['minute', 60_000],
]
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/**
 * How long ago something happened on the server-rendered user pages: "3 hours ago", "yesterday", "just now". Days
 * in the organization's format come from src/shared/time.ts; <time> carries the exact instant.
 */
export function timeAgo(isoValue: string, now = Date.now()): string {
  const elapsed = now - new Date(isoValue).getTime()
  if (elapsed < 60_000) return texts.users.justNow
  for (const [unit, ms] of UNITS) {
    if (elapsed >= ms) return relative.format(-Math.floor(elapsed / ms), unit)
  }
  return texts.users.justNow
}
