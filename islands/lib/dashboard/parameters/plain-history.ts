/**
 * The public dashboard's keeper of its address (decision 0021): what the dashboard's router does for the parameters
 * (Apply is a history entry, back and forward bring earlier values back), with the browser's own history and none of
 * the router's 25 KB. It has the router module's shape, so the parameters island uses either the same way.
 */
import { parseSearch, stringifySearch, validateDashboardSearch, type DashboardSearch } from './search.ts'

export interface PlainHistory {
  load(): Promise<void>
  history: { subscribe(listener: () => void): () => void }
}

/** Who hears of each change of the address: Apply here, back and forward in the browser. */
const listeners = new Set<() => void>()
const tell = () => listeners.forEach((listener) => listener())

export function createDashboardRouter(): PlainHistory {
  window.addEventListener('popstate', tell)
  return {
    load: async () => {},
    history: {
      subscribe(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    },
  }
}

/** The validated search of the address the page is at. */
export function currentSearch(_history: PlainHistory): DashboardSearch {
  return validateDashboardSearch(parseSearch(window.location.search))
}

/** Go to the address with these parameter keys set (null removes one), as a new history entry; listeners hear of it. */
export async function navigateParameters(_history: PlainHistory, changes: Record<string, string | null>): Promise<void> {
  const next: DashboardSearch = validateDashboardSearch(parseSearch(window.location.search))
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key]
    else next[key] = value
  }
  window.history.pushState(window.history.state, '', `${window.location.pathname}${stringifySearch(next)}${window.location.hash}`)
  tell()
}
