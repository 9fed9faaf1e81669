import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import { recordEvent } from '../events/service.ts'
import { findGroupsByIds } from '../groups/store.ts'
import { isAdmin, has } from '../permissions/can.ts'
import type { Principal } from '../permissions/principal.ts'
import { requireAdminOrOwner } from '../permissions/require.ts'
import { generateApiKey } from '../auth/tokens.ts'
import { Forbidden } from '../errors.ts'
import { findUserById, replaceApiKey } from './store.ts'
import { userJson } from './serialize.ts'

/** One user as the caller may see them: themself, or anyone when they may list users; the key only for self/admin. */
export async function getUser(deps: Deps, principal: Principal, id: number) {
  const user = await findUserById(deps.sql, principal.orgId, id)
  if (!user) throw new NotFound()
  const self = principal.id === id
  if (!self && !has(principal, 'list_users') && !isAdmin(principal)) throw new Forbidden()
  const groups = await findGroupsByIds(deps.sql, principal.orgId, user.group_ids)
  return userJson(user, { withApiKey: self || isAdmin(principal), groups })
}

/** A new key for the user; the old one stops working at once, in every process. */
export async function regenerateUserApiKey(deps: Deps, principal: Principal, id: number) {
  const user = await findUserById(deps.sql, principal.orgId, id)
  if (!user || user.disabled_at) throw new NotFound()
  requireAdminOrOwner(principal, id)
  const apiKey = generateApiKey()
  await deps.sql.begin(async (tx) => {
    await replaceApiKey(tx, principal.orgId, id, apiKey)
    await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, action: 'regenerate_api_key', objectType: 'user', objectId: id })
  })
  if (user.api_key) deps.principals.delete(`k:${user.api_key}`)
  await deps.bus.invalidate('user', id)
  return apiKey
}
