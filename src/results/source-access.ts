import { principalToRunAs } from '../auth/service.ts'
import { readableCount } from '../data-sources/store.ts'
import type { Db } from '../db/sql.ts'
import { isAdmin } from '../permissions/can.ts'
import type { Principal } from '../permissions/principal.ts'
import type { ResultRow } from './store.ts'

/**
 * A result of a Query Results query shows rows of every source it read (`source_ids`, recorded as it ran): only a
 * user who may read each of them may read it, whoever ran it. Other results need nothing beyond their own source.
 */
export async function mayReadSourcesOf(db: Db, principal: Principal | undefined, result: Pick<ResultRow, 'source_ids'>): Promise<boolean> {
  const ids = [...new Set((result.source_ids ?? []).map(Number))]
  if (!ids.length) return true
  if (!principal) return false
  if (isAdmin(principal)) return true
  return (await readableCount(db, ids, principal.groupIds)) === ids.length
}

/** The same, for a run's user known by id (a schedule runs as the query's owner); no user reads such a result. */
export async function userMayReadSourcesOf(db: Db, userId: number | null, result: Pick<ResultRow, 'source_ids'>): Promise<boolean> {
  if (!result.source_ids?.length) return true
  return mayReadSourcesOf(db, userId == null ? undefined : await principalToRunAs(db, userId), result)
}
