import type { Deps } from '../deps.ts'
import type { Db } from '../db/index.ts'
import { BadRequest } from '../errors.ts'
import { objectBody } from '../validation/index.ts'
import { audited } from '../events/index.ts'
import { STORED_OBJECT_TYPE, type ObjectType } from '../object-types.ts'
import { isAdminOrOwner, mayModify, requireAdminOrOwner } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { findUserById, usersByIds, type UserRow } from '../users/index.ts'
import * as store from './store.ts'
import type { GrantRow } from './store.ts'

/**
 * The access types a grant may give. The established tool accepts view and delete too but consults only modify
 * (reference §2.4), so Sightline offers only the one that does something.
 */
export const ACCESS_TYPES = ['modify'] as const
export type AccessType = (typeof ACCESS_TYPES)[number]

export const grantTexts = {
  unknownAccessType: 'Unknown access type.',
  userNotFound: 'User not found.',
}

/**
 * The object a grant is about, as its own service found it for the caller (who may see it, or got a 404 there):
 * grants are written once for every kind, and each kind decides who may see which of its objects.
 */
export interface GrantTarget {
  type: ObjectType
  id: number
  /** Its owner, who with admins may grant and revoke. */
  ownerId: number
}

/** Grantees of each access type, in the order they were granted; users deleted since are left out. */
export type Acl = Record<AccessType, UserRow[]>

const isAccessType = (value: unknown): value is AccessType => (ACCESS_TYPES as readonly unknown[]).includes(value)

/** Admin, owner, or granted 'modify' on it (reference §2.4 `can_modify`): who may change an object's content. */
export async function canModify(db: Db, principal: Principal, target: GrantTarget): Promise<boolean> {
  return mayModify(principal, target.ownerId, () => store.hasGrant(db, target.type, target.id, 'modify', principal.id))
}

/**
 * The access types an object's ACL gives the caller, for its policy (src/permissions/policies). Grants decide only for
 * callers who are neither admin nor owner, so the ACL is read only for them.
 */
export async function grantedTo(db: Db, principal: Principal, target: GrantTarget): Promise<AccessType[]> {
  if (isAdminOrOwner(principal, target.ownerId)) return []
  return (await store.hasGrant(db, target.type, target.id, 'modify', principal.id)) ? ['modify'] : []
}

/** GET /api/<type>/<id>/acl: every access type, each with its grantees (an empty list when none). */
export async function listAcl(deps: Deps, principal: Principal, target: GrantTarget): Promise<Acl> {
  const grants = await store.grantsOn(deps.sql, target.type, target.id, ACCESS_TYPES)
  const users = await usersByIds(deps.sql, principal.orgId, grants.map((g) => g.grantee_id))
  const acl = Object.fromEntries(ACCESS_TYPES.map((type) => [type, [] as UserRow[]])) as Acl
  for (const g of grants) {
    const user = users.get(g.grantee_id)
    if (user && isAccessType(g.access_type)) acl[g.access_type].push(user)
  }
  return acl
}

/** GET /api/<type>/<id>/acl/<access_type>: whether the caller holds that grant (ownership is not a grant). */
export async function holdsGrant(deps: Deps, principal: Principal, target: GrantTarget, accessType: string): Promise<boolean> {
  return isAccessType(accessType) && store.hasGrant(deps.sql, target.type, target.id, accessType, principal.id)
}

/** The body of a grant or a revoke: `{access_type, user_id}`; the user must be of the caller's organization. */
async function parseGrantBody(deps: Deps, principal: Principal, body: unknown): Promise<{ accessType: AccessType; grantee: UserRow }> {
  const { access_type: accessType, user_id: rawUserId } = objectBody(body)
  if (!isAccessType(accessType)) throw new BadRequest(grantTexts.unknownAccessType)
  const userId = typeof rawUserId === 'string' && /^\d{1,15}$/.test(rawUserId) ? Number(rawUserId) : rawUserId
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) throw new BadRequest(grantTexts.userNotFound)
  const grantee = await findUserById(deps.sql, principal.orgId, userId)
  if (!grantee) throw new BadRequest(grantTexts.userNotFound)
  return { accessType, grantee }
}

/** POST /api/<type>/<id>/acl: the owner or an admin grants; granting again answers the grant already there. */
export async function grantAccess(deps: Deps, principal: Principal, target: GrantTarget, body: unknown): Promise<GrantRow> {
  requireAdminOrOwner(principal, target.ownerId)
  const { accessType, grantee } = await parseGrantBody(deps, principal, body)
  const properties = { grantee: grantee.id, access_type: accessType }
  const event = { action: 'grant_permission', objectType: STORED_OBJECT_TYPE[target.type], objectId: target.id, properties }
  return audited(deps.sql, principal, event, (tx) =>
    store.insertGrant(tx, { type: target.type, objectId: target.id, accessType, grantorId: principal.id, granteeId: grantee.id }))
}

/** DELETE /api/<type>/<id>/acl: the owner or an admin revokes, whoever granted it; nothing to revoke is fine. */
export async function revokeAccess(deps: Deps, principal: Principal, target: GrantTarget, body: unknown) {
  requireAdminOrOwner(principal, target.ownerId)
  const { accessType, grantee } = await parseGrantBody(deps, principal, body)
  const properties = { grantee: grantee.id, access_type: accessType }
  const event = { action: 'revoke_permission', objectType: STORED_OBJECT_TYPE[target.type], objectId: target.id, properties }
  await audited(deps.sql, principal, event, (tx) => store.deleteGrant(tx, target.type, target.id, accessType, grantee.id))
}
