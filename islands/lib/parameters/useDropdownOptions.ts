import { useEffect, useState } from 'react'
import { api } from '../api.ts'
import type { Choice } from './MultiSelect.tsx'

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; choices: Choice[] }

// Several parameters (or several mounts of the row) may use the same dropdown query: ask once per page.
const requests = new Map<string, Promise<Choice[]>>()

/**
 * Where a query-dropdown parameter's options come from: in the context of a saved query, the query's own
 * endpoint (which checks that the query really uses that dropdown, so viewers without access to the dropdown
 * query still get its options); otherwise the dropdown query's endpoint.
 */
export function dropdownPath(dropdownQueryId: number | string, queryId?: number | string): string {
  const dropdown = encodeURIComponent(String(dropdownQueryId))
  return queryId == null
    ? `/api/queries/${dropdown}/dropdown`
    : `/api/queries/${encodeURIComponent(String(queryId))}/dropdowns/${dropdown}`
}

function load(path: string): Promise<Choice[]> {
  let request = requests.get(path)
  if (!request) {
    request = api<Array<{ name: unknown; value: string | number }>>('GET', path).then((rows) =>
      rows.map((row) => ({ label: String(row.name ?? row.value), value: row.value })))
    // A failure is not remembered, so the next mount tries again.
    request.catch(() => requests.delete(path))
    requests.set(path, request)
  }
  return request
}

/** The options of a query-dropdown parameter, loaded when it mounts. */
export function useDropdownOptions(dropdownQueryId: number | string | null | undefined, queryId?: number | string): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
  const path = dropdownQueryId == null || dropdownQueryId === '' ? null : dropdownPath(dropdownQueryId, queryId)
  useEffect(() => {
    if (path === null) return setLoaded({ status: 'ready', choices: [] })
    let current = true
    setLoaded({ status: 'loading' })
    load(path).then(
      (choices) => current && setLoaded({ status: 'ready', choices }),
      () => current && setLoaded({ status: 'failed' }),
    )
    return () => {
      current = false
    }
  }, [path])
  return loaded
}
