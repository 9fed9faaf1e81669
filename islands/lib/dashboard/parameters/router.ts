/**
 * The dashboard page's address as typed state, kept by @tanstack/react-router: its flags (`edit`, `fullscreen`,
 * `refresh`) and parameter values (`p_name`, `p_w{widgetId}_name`) validated on every change of the address, applying
 * parameters as a navigation (a history entry), so back and forward bring earlier values back. Only the dashboard's
 * parameters island loads it: the router is not the site's, pages still load from the server.
 */
import { createBrowserHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router'

/** What the dashboard's address may hold: flags, parameter values, and other keys (filters' pre-selections) as text. */
export interface DashboardSearch {
  edit?: true
  fullscreen?: true
  refresh?: number
  /** `p_…` keys and anything else, as the address spells them. */
  [key: string]: string | number | true | undefined
}

/** Every key as text, as the established tool's addresses write it (the router's default would read JSON). */
function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search))
}

/** `?edit&p_year=2024`: flags bare, the rest as text, nothing for undefined. */
function stringifySearch(search: Record<string, unknown>): string {
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

export function createDashboardRouter() {
  const root = createRootRoute({ validateSearch: validateDashboardSearch })
  // the dashboard's own path, whatever its slug: the router never changes the path, only the search
  const page = createRoute({ getParentRoute: () => root, path: '$' })
  return createRouter({ routeTree: root.addChildren([page]), history: createBrowserHistory(), parseSearch, stringifySearch })
}

export type DashboardRouter = ReturnType<typeof createDashboardRouter>

/** The validated search of the address the router is at. */
export function currentSearch(router: DashboardRouter): DashboardSearch {
  return (router.state.matches[0]?.search as DashboardSearch | undefined) ?? validateDashboardSearch(parseSearch(router.state.location.searchStr))
}

/**
 * Go to the address with these parameter keys set (a value of null removes the key), as a new history entry. The
 * other keys come from the page's address as it is now: other islands change flags in place, behind the router's back.
 */
export async function navigateParameters(router: DashboardRouter, changes: Record<string, string | null>): Promise<void> {
  const next: DashboardSearch = validateDashboardSearch(parseSearch(window.location.search))
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key]
    else next[key] = value
  }
  await router.navigate({ to: '.', search: next as never })
}
