import { getAccessible } from '../data-sources/index.ts'
import type { AccessibleDataSourceRow } from '../data-sources/index.ts'
import type { Deps } from '../deps.ts'
import type { Db } from '../db/index.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { grantedTo, type GrantTarget } from '../grants/index.ts'
import { allowed, isAdmin, queryPolicy, queryRefusals, requireAllowed, requireRight } from '../permissions/index.ts'
import type { Principal, QueryRights } from '../permissions/index.ts'
import { isSafeQuery } from './serialize.ts'
import { dropdownQueryIds } from './body.ts'
import * as store from './store.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import type { AccessibleQueryRow, QueryRow, Viewer } from './store.ts'

export const accessTexts = {
  ...queryRefusals,
  noSource: 'Data source not found.',
  dropdownNotVisible:
    'You are trying to associate a dropdown query that does not have a matching group. Please verify the dropdown query id you are trying to associate with this query.',
}

export const viewerOf = (p: Principal): Viewer => ({ orgId: p.orgId, userId: p.id, groupIds: p.groupIds, admin: isAdmin(p) })

/** The viewer as the lists read it: a member's readable sources looked up once, up front (store.withReadableSources). */
export const listViewer = (db: Db, p: Principal): Promise<Viewer> => store.withReadableSources(db, viewerOf(p))

/** The one meaning of allowed (src/permissions), named here too for the query pages and services that use it. */
export { allowed, requireAllowed }

/**
 * One query the caller may see, with their access level (`view_only`), archived or not. 404 for a query of another
 * organization, of a source none of their groups has, or (source deleted) of someone else.
 */
export async function getAccessibleQuery(deps: Deps, principal: Principal, id: number): Promise<AccessibleQueryRow> {
  const row = await store.findVisible(deps.sql, viewerOf(principal), id)
  if (!row) throw new NotFound()
  return row
}

/** A query as grants see it: its id and its owner. */
export const grantTarget = (row: QueryRow): GrantTarget => ({ type: 'queries', id: row.id, ownerId: row.user_id })

/**
 * The caller's rights on a query they may see (src/permissions/policies/query.ts): the one answer services, pages and
 * the wire's `can_edit` read. The query's ACL is read only when it decides.
 */
export async function queryRights(db: Db, principal: Principal, row: AccessibleQueryRow): Promise<QueryRights> {
  const policyRow = { user_id: row.user_id, is_archived: row.is_archived, is_safe: isSafeQuery(row.options) }
  return queryPolicy(principal, policyRow, { view_only: row.view_only }, await grantedTo(db, principal, grantTarget(row)))
}

/** `can_edit` says what a save would be allowed: edit_query, modify rights, and more than view-only access. */
export async function canEditQuery(db: Db, principal: Principal, row: AccessibleQueryRow): Promise<boolean> {
  return (await queryRights(db, principal, row)).edit === true
}

/** The same rule as the query policy's `manage` where a query is one of many (lists, dashboards, alerts), decided per
 * row without grants: admin or owner, who may edit queries. */
export const holdsListedApiKey = (principal: Principal | undefined, row: QueryRow) =>
  isAdmin(principal) || (!!principal && row.user_id === principal.id && allowed(principal, 'edit_query'))

/** The guard of every change to a query's content: 403 with the reason. */
export async function requireEdit(db: Db, principal: Principal, row: AccessibleQueryRow) {
  requireAllowed(principal, 'edit_query')
  requireRight((await queryRights(db, principal, row)).edit)
}

/**
 * A source a query may be written for: one the caller's groups give full access to (400 unknown; 403 view-only, or
 * none of the caller's groups has it).
 */
export async function sourceForQuery(deps: Deps, principal: Principal, dataSourceId: number): Promise<AccessibleDataSourceRow> {
  let ds: AccessibleDataSourceRow
  try {
    ds = await getAccessible(deps, principal, dataSourceId)
  } catch (error) {
    if (error instanceof NotFound) throw new BadRequest(accessTexts.noSource)
    throw error
  }
  if (ds.view_only) throw new Forbidden("You don't have permission to create or change queries on this data source.")
  return ds
}

/**
 * Dropdown parameters may only use queries the caller can see (reference §3.1): an unknown query is a 400, one of a
 * source none of the caller's groups has a 403, as the established tool answers (decision 0024). Only new references
 * are checked: a save must not fail because of a link someone else made earlier.
 */
export async function checkDropdownQueries(
  deps: Deps, principal: Principal, parameters: ParameterDefinition[] | undefined, before: ParameterDefinition[] | undefined = [],
) {
  const known = new Set((before ?? []).filter((p) => p.type === 'query').map((p) => Number(p.queryId)))
  const added = dropdownQueryIds(parameters, accessTexts.dropdownNotVisible).filter((id) => !known.has(id))
  if (!added.length) return
  const visible = new Set(await store.visibleIds(deps.sql, viewerOf(principal), added))
  const hidden = added.filter((id) => !visible.has(id))
  if (!hidden.length) return
  const existing = await store.existingIds(deps.sql, principal.orgId, hidden)
  if (existing.length < hidden.length) throw new BadRequest(accessTexts.dropdownNotVisible)
  throw new Forbidden(accessTexts.dropdownNotVisible)
}
