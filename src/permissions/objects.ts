import crypto from 'node:crypto'
import { allowed, isAdmin, isAdminOrOwner } from './can.ts'
import type { Principal } from './principal.ts'

/**
 * May this caller do this to that object: the decisions, on plain data the services fetch (rows, group access,
 * grants), so every service and page asks the same questions and gets the same answers. The stores do the reading.
 */

/** A caller's access to a data source: full, or view-only (read results, run safe parameters); undefined is none. */
export interface SourceAccess {
  view_only: boolean
}

/** Admins have full access to every source of their organization; others what their groups give (reference §2.3). */
export function sourceAccess(principal: Principal, throughGroups: SourceAccess | undefined): SourceAccess | undefined {
  return isAdmin(principal) ? { view_only: false } : throughGroups
}

/** Running new query text on a source: full access to it and `execute_query` (spec 2 §5). */
export function mayRunOn(principal: Principal, access: SourceAccess | undefined): boolean {
  return !!access && !access.view_only && allowed(principal, 'execute_query')
}

/**
 * Stopping a run: the one who started it, an admin, or anyone who may run on its source (identical runs are shared,
 * so a colleague's run may be the one you wait on). The access is read only when it decides.
 */
export async function mayCancel(
  principal: Principal, execution: { user_id: number | null }, access: () => Promise<SourceAccess | undefined>,
): Promise<boolean> {
  return execution.user_id === principal.id || isAdmin(principal) || mayRunOn(principal, await access())
}

/** `can_modify` (reference §2.4): admin, owner, or granted 'modify' on it; the grant is read only when it decides. */
export async function mayModify(principal: Principal, ownerId: number | null, granted: () => Promise<boolean>): Promise<boolean> {
  return isAdminOrOwner(principal, ownerId) || (await granted())
}

/** A query's own API key opens that query alone, read-only, and never once archived (reference §2.3). */
export function queryKeyOpens(query: { is_archived: boolean; api_key_hash: Buffer }, keyHash: Buffer): boolean {
  return !query.is_archived && keyHash.length === query.api_key_hash.length && crypto.timingSafeEqual(keyHash, query.api_key_hash)
}
