import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/principal.ts'
import { findUserById, type UserRow } from '../users/store.ts'
import { canEditQuery } from './access.ts'
import type { QueryDetails } from './serialize.ts'
import * as store from './store.ts'
import type { AccessibleQueryRow, QueryRow } from './store.ts'

/** The users these ids name (owners, editors), each read once; a deleted user is simply absent. */
export async function usersByIds(deps: Deps, orgId: number, ids: (number | null)[]): Promise<Map<number, UserRow>> {
  const distinct = [...new Set(ids.filter((id): id is number => id !== null))]
  const rows = await Promise.all(distinct.map((id) => findUserById(deps.sql, orgId, id)))
  return new Map(rows.filter((u): u is UserRow => !!u).map((u) => [u.id, u]))
}

/** What GET /api/queries/{id} shows a signed-in caller: visualizations, people, their star and edit right. */
export async function queryDetails(deps: Deps, principal: Principal, row: AccessibleQueryRow): Promise<QueryDetails> {
  const [visualizations, users, isFavorite, canEdit] = await Promise.all([
    store.listVisualizations(deps.sql, row.id),
    usersByIds(deps, row.org_id, [row.user_id, row.last_modified_by_id]),
    store.isFavorite(deps.sql, principal.id, row.id),
    canEditQuery(deps.sql, principal, row),
  ])
  return { row, users, visualizations, isFavorite, canEdit }
}

/** What a caller holding the query's API key sees: the same query, read-only, starred by nobody. */
export async function sharedQueryDetails(deps: Deps, row: QueryRow): Promise<QueryDetails> {
  const [visualizations, users] = await Promise.all([
    store.listVisualizations(deps.sql, row.id),
    usersByIds(deps, row.org_id, [row.user_id, row.last_modified_by_id]),
  ])
  return { row, users, visualizations, isFavorite: false }
}
