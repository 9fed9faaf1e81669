import type { Deps } from '../deps.ts'
import type { QueryRow } from './store.ts'

/** A query opened by the key of another object that shows it (a shared dashboard's token). */
export interface OpenedByObjectKey {
  query: QueryRow
  /** The max_age its runs take, whatever the caller asked: such callers share executions (decision 0021). */
  maxAge(asked: number): number
}

/** Opens the query when the key is one of its feature's and that object shows the query; null otherwise. */
export type QueryKeyOpener = (deps: Deps, queryId: number, key: string) => Promise<OpenedByObjectKey | null>

/**
 * The one way a feature built on queries lets its own keys open them (public dashboards' share tokens), so queries/
 * never imports it: the query as the first feature of the deps that knows this key opens it; null when none does.
 */
export async function openByObjectKey(deps: Deps, queryId: number, key: string): Promise<OpenedByObjectKey | null> {
  for (const feature of deps.features) {
    // Feature names its row opaquely (src/deps.ts is below this domain); the openers return this domain's rows
    const opened = (await feature.openQueryByKey?.(deps, queryId, key)) as OpenedByObjectKey | null | undefined
    if (opened) return opened
  }
  return null
}
