/** Dates on charts and tables: `formatPattern` (src/shared/time.ts) writes them, in UTC; here the pattern is chosen. */

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
