/**
 * The dashboard's address as typed state: what it may hold, how it is read and written in the established tool's plain
 * `key=value` form, and the check of every key. Shared by the dashboard's router (router.ts) and the public page's
 * plain history (plain-history.ts), which need the same reading without the same machinery.
 */
/** What the dashboard's address may hold: flags, parameter values, and other keys (filters' pre-selections) as text. */
export interface DashboardSearch {
  edit?: true
  fullscreen?: true
  refresh?: number
  /** `p_…` keys and anything else, as the address spells them. */
  [key: string]: string | number | true | undefined
}

/** Every key as text, as the established tool's addresses write it (the router's default would read JSON). */
export function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search))
}

/** `?edit&p_year=2024`: flags bare, the rest as text, nothing for undefined. */
export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === false) continue
    params.set(key, value === true ? '' : String(value))
  }
  const text = params.toString().replace(/=(?=&|$)/g, '')
  return text ? `?${text}` : ''
}

/**
 * The address's keys checked: flags are true when present, `refresh` a whole number of seconds (else dropped),
 * every other key kept as its text.
 */
export function validateDashboardSearch(raw: Record<string, unknown>): DashboardSearch {
  const out: DashboardSearch = {}
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'edit' || key === 'fullscreen') out[key] = true
    else if (key === 'refresh') {
      const seconds = Number(value)
      if (Number.isInteger(seconds) && seconds > 0) out.refresh = seconds
    } else if (typeof value === 'string') out[key] = value
    else if (typeof value === 'number') out[key] = String(value)
  }
  return out
}
