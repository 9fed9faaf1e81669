/**
 * The System Status counters count whole tables of an organization. While they are small the page counts them on
 * every load, exactly (an admin checking a clean-up sees it at once); once they hold `largeRows` rows or more between
 * them, a count is kept for `keepMs` per organization, so a status page left open on a large installation does not
 * scan hundreds of thousands of rows every few seconds. Kept per process: each web process counts for itself.
 */
export interface StatusCacheOptions {
  largeRows: number
  keepMs: number
  now?: () => number
}

export function statusCountsCache<T>(size: (counts: T) => number, o: StatusCacheOptions) {
  const now = o.now ?? Date.now
  const kept = new Map<number, { counts: T; until: number }>()
  return async (orgId: number, count: () => Promise<T>): Promise<T> => {
    const hit = kept.get(orgId)
    if (hit && hit.until > now()) return hit.counts
    const counts = await count()
    if (size(counts) >= o.largeRows) kept.set(orgId, { counts, until: now() + o.keepMs })
    else kept.delete(orgId)
    return counts
  }
}
