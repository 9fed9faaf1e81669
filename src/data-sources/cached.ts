import type { Deps } from '../deps.ts'
import type { DataSourceRow } from './store.ts'
import { findWithGrants } from './store.ts'

/**
 * A source of the organization and the groups that may use it, from this process's cache (`deps.dataSources`) or
 * read in one statement and kept. Every change to a source or its groups evicts it in every process at its commit
 * (the cache bus, sent by the writer and by a trigger: sql/migrations/0052), so a source taken from a member's
 * groups stops being usable at once everywhere; the cache's TTL only bounds a message that was never heard.
 */
export async function cachedSource(deps: Deps, orgId: number, id: number): Promise<{ row: DataSourceRow; grants: { groupId: number; viewOnly: boolean }[] } | undefined> {
  const key = String(id)
  // a worker drawing a report has no cache (and hears no bus): it reads the source each time
  const cache = deps.dataSources as Deps['dataSources'] | undefined
  let entry = cache?.get(key)
  if (!entry) {
    // an eviction heard while this read is under way means it may be stale: used for this request, not kept
    const since = cache?.generation
    const found = await findWithGrants(deps.sql, id)
    if (!found) return undefined
    entry = found
    cache?.set(key, found, since)
  }
  if (entry.row.org_id !== orgId) return undefined
  // a copy: callers may add to the row they are given
  return { row: { ...(entry.row as DataSourceRow) }, grants: entry.grants }
}

/** The caller's access through their groups: view-only when every group of theirs that has the source is view-only. */
export function accessOf(grants: { groupId: number; viewOnly: boolean }[], groupIds: readonly number[]): { view_only: boolean } | undefined {
  const mine = grants.filter((g) => groupIds.includes(g.groupId))
  return mine.length ? { view_only: mine.every((g) => g.viewOnly) } : undefined
}

/** After a change made in this process: evicted here before the answer goes out, and in the others by the bus. */
export async function sourceChanged(deps: Deps, id: number) {
  await deps.bus.invalidate('data_source', id)
}
