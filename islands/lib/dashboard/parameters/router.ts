/**
 * The dashboard page's address as typed state, kept by @tanstack/react-router: its flags (`edit`, `fullscreen`,
 * `refresh`) and parameter values (`p_name`, `p_w{widgetId}_name`) validated on every change of the address, applying
 * parameters as a navigation (a history entry), so back and forward bring earlier values back. Only the dashboard's
 * parameters island loads it: the router is not the site's, pages still load from the server.
 */
import { createBrowserHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router'
import { parseSearch, stringifySearch, validateDashboardSearch, type DashboardSearch } from './search.ts'

export { validateDashboardSearch, type DashboardSearch }

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
