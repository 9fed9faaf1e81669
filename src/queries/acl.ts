import type { Deps } from '../deps.ts'
import { grantAccess, holdsGrant, listAcl, revokeAccess, type Acl } from '../grants/index.ts'
import type { GrantRow } from '../grants/index.ts'
import type { Principal } from '../permissions/index.ts'
import { getAccessibleQuery, grantTarget } from './access.ts'

/**
 * A query's edit grants (reference §2.6). Anyone who can see the query sees who may edit it; its owner or an admin
 * grants and revokes. A query the caller cannot see is a 404, as everywhere else.
 */
async function target(deps: Deps, principal: Principal, id: number) {
  return grantTarget(await getAccessibleQuery(deps, principal, id))
}

/** GET /api/queries/{id}/acl. */
export async function queryAcl(deps: Deps, principal: Principal, id: number): Promise<Acl> {
  return listAcl(deps, principal, await target(deps, principal, id))
}

/** POST /api/queries/{id}/acl `{access_type, user_id}`. */
export async function grantQueryAccess(deps: Deps, principal: Principal, id: number, body: unknown): Promise<GrantRow> {
  return grantAccess(deps, principal, await target(deps, principal, id), body)
}

/** DELETE /api/queries/{id}/acl `{access_type, user_id}`. */
export async function revokeQueryAccess(deps: Deps, principal: Principal, id: number, body: unknown) {
  await revokeAccess(deps, principal, await target(deps, principal, id), body)
}

/** GET /api/queries/{id}/acl/{access_type}: whether the caller was granted it. */
export async function queryGrantCheck(deps: Deps, principal: Principal, id: number, accessType: string): Promise<boolean> {
  return holdsGrant(deps, principal, await target(deps, principal, id), accessType)
}
