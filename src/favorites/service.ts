import type { Deps } from '../deps.ts'
import type { Db } from '../db/index.ts'
import { audited } from '../events/index.ts'
import { STORED_OBJECT_TYPE, type ObjectType } from '../object-types.ts'
import type { Principal } from '../permissions/index.ts'
import * as store from './store.ts'

export { favoriteIds } from './store.ts'

/** Whether the caller starred the object. */
export function isFavorite(db: Db, principal: Principal, type: ObjectType, objectId: number): Promise<boolean> {
  return store.isFavorite(db, principal.id, type, objectId)
}

/**
 * POST/DELETE /api/<type>/<id>/favorite (reference §7.4): star or un-star, idempotent, with its audit event. The
 * caller's service has already checked that the caller may see the object: a star says nothing about access.
 */
export async function setFavorite(deps: Deps, principal: Principal, type: ObjectType, objectId: number, favorite: boolean) {
  await audited(deps.sql, principal, { action: favorite ? 'favorite' : 'unfavorite', objectType: STORED_OBJECT_TYPE[type], objectId }, async (tx) => {
    if (favorite) await store.addFavorite(tx, principal.id, type, objectId)
    else await store.removeFavorite(tx, principal.id, type, objectId)
  })
}
