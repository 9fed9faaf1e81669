import { revealApiKey } from '../credentials/index.ts'
import type { Deps } from '../deps.ts'
import { isFavorite as hasStarred } from '../favorites/index.ts'
import type { Principal } from '../permissions/index.ts'
import { usersByIds } from '../users/index.ts'
import { holdsListedApiKey, queryRights } from './access.ts'
import type { QueryDetails } from './serialize.ts'
import * as store from './store.ts'
import type { AccessibleQueryRow, QueryRow, Shown } from './store.ts'


export function withShownApiKey<T extends QueryRow>(deps: Deps, row: T, holder: boolean): Shown<T> {
  return { ...row, api_key: holder ? revealApiKey(deps.secretKey, row.api_key_sealed) : null }
}

/** Queries in a list or inside another object's answer: the key only for an admin or the query's owner (decision 0025). */
export const withListedApiKey = <T extends QueryRow>(deps: Deps, principal: Principal | undefined, row: T): Shown<T> =>
  withShownApiKey(deps, row, holdsListedApiKey(principal, row))

/** What GET /api/queries/{id} shows a signed-in caller: visualizations, people, their star and rights. */
export async function queryDetails(deps: Deps, principal: Principal, row: AccessibleQueryRow): Promise<QueryDetails> {
  const [visualizations, users, isFavorite, rights] = await Promise.all([
    store.listVisualizations(deps.sql, row.id),
    usersByIds(deps.sql, row.org_id, [row.user_id, row.last_modified_by_id]),
    hasStarred(deps.sql, principal, 'queries', row.id),
    queryRights(deps.sql, principal, row),
  ])
  return { row: withShownApiKey(deps, row, rights.holdApiKey === true), users, visualizations, isFavorite, canEdit: rights.edit === true, rights }
}

/** What a caller holding the query's API key sees: the same query, read-only, starred by nobody. */
export async function sharedQueryDetails(deps: Deps, row: QueryRow): Promise<QueryDetails> {
  const [visualizations, users] = await Promise.all([
    store.listVisualizations(deps.sql, row.id),
    usersByIds(deps.sql, row.org_id, [row.user_id, row.last_modified_by_id]),
  ])
  // the caller came with this very key
  return { row: withShownApiKey(deps, row, true), users, visualizations, isFavorite: false }
}
