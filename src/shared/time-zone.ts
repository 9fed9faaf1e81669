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

let names: readonly string[] | null = null

/**
 * The IANA time zone names a person may pick (their profile): the runtime's own list (`Intl.supportedValuesOf`), with
 * UTC first, which the list leaves out as it is no region's zone.
 */
export function timeZoneNames(): readonly string[] {
  names ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]
  return names
}

/** Whether a name is one of `timeZoneNames()` (exactly: no alias, no other case). */
export const isIanaTimeZone = (name: unknown): name is string => typeof name === 'string' && timeZoneNames().includes(name)
