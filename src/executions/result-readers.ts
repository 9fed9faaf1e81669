import { principalToRunAs } from '../credentials/index.ts'
import type { Db } from '../db/index.ts'
import { mayReadSourcesOf } from '../results/index.ts'
import type { ResultRow } from '../results/index.ts'

/**
 * `mayReadSourcesOf` for a run's user known by id (a schedule runs as the query's owner, an alert evaluates as its
 * owner): their rights as they are now; no user (a key's run) reads a result that read other sources.
 */
export async function userMayReadSourcesOf(db: Db, userId: number | null, result: Pick<ResultRow, 'source_ids'>): Promise<boolean> {
  if (!result.source_ids?.length) return true
  return mayReadSourcesOf(db, userId == null ? undefined : await principalToRunAs(db, userId), result)
}
