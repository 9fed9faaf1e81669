/**
 * Dates formatted with the established tool's moment.js-style patterns (`DD/MM/YY HH:mm`, `YYYY-MM-DD` …), always
 * in UTC: see `toDate` for why every instant is drawn in UTC.
 */

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

/** `date` written with a moment.js-style `pattern`, in UTC; `[text]` is copied as written. */
export function formatDate(date: Date, pattern = 'YYYY-MM-DD HH:mm'): string {
  if (Number.isNaN(date.getTime())) return ''
  return pattern.replace(TOKENS, (t, literal: string | undefined) => literal ?? token(t, date))
}

/**
 * The shortest pattern that shows every value in `times` without losing information: no 00:00 on daily data,
 * "Jan 2024" for monthly data, the year alone for yearly data.
 */
export function naturalDatePattern(times: number[]): string {
  let hasTime = false
  let hasSeconds = false
  let monthly = true
  let yearly = true
  for (const t of times) {
    if (t % 86_400_000 !== 0) hasTime = true
    if (t % 60_000 !== 0) hasSeconds = true
    if (monthly) {
      const d = new Date(t)
      monthly = d.getUTCDate() === 1 && !hasTime
      yearly &&= d.getUTCMonth() === 0
    }
    if (hasSeconds) break
  }
  if (hasSeconds) return 'YYYY-MM-DD HH:mm:ss'
  if (hasTime) return 'YYYY-MM-DD HH:mm'
  if (times.length && monthly && yearly) return 'YYYY'
  return times.length && monthly ? 'MMM YYYY' : 'YYYY-MM-DD'
}
