import { readableCount } from '../data-sources/index.ts'
import type { Db } from '../db/index.ts'
import { isAdmin } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import type { ResultRow } from './store.ts'

/** What a reader is told of a Query Results result whose sources they may not all read. */
export const UNREADABLE_RESULT = 'This result reads data sources you may not read.'

/**
 * A result of a Query Results query shows rows of every source it read (`source_ids`, recorded as it ran): only a
 * user who may read each of them may read it, whoever ran it. A share token's creator is no reader of it (a token
 * never reads a Query Results query, whatever its creator may), nor is a key (no principal). Other results need
 * nothing beyond their own source.
 */
export async function mayReadSourcesOf(db: Db, principal: Principal | null | undefined, result: Pick<ResultRow, 'source_ids'>): Promise<boolean> {
  const ids = [...new Set((result.source_ids ?? []).map(Number))]
  if (!ids.length) return true
  if (!principal || principal.via === 'share_key') return false
  if (isAdmin(principal)) return true
  return (await readableCount(db, ids, principal.groupIds)) === ids.length
}
