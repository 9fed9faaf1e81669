/** Whether the runtime knows a time zone name ('UTC', 'Europe/Paris'): the organization's setting and reports' schedules. */
export function isTimeZone(name: string): boolean {
  if (typeof name !== 'string' || name.length === 0 || name.length > 100) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}
