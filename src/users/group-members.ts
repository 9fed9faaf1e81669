import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { Forbidden, NotFound } from '../errors.ts'
import { recordAudit } from '../events/index.ts'
import { canSeeMembers, memberTexts, addGroupMember, findGroup, findGroupsByIds, listGroups, removeGroupMember, type GroupRow } from '../groups/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { userJson } from './serialize.ts'
import { findUserById, listGroupMembers } from './store.ts'

/* A group's members (spec 3 §2 "Groups"): users shown as users, so this lives with the users, above the groups. */

/** The group and its members, by name (spec 3 §2 "Groups"). */
export async function groupMembers(deps: Deps, principal: Principal, groupId: number) {
  const group = await findGroup(deps.sql, principal.orgId, groupId)
  if (!group) throw new NotFound(memberTexts.groupNotFound)
  if (!canSeeMembers(principal, groupId)) throw new Forbidden()
  const [rows, all] = await Promise.all([listGroupMembers(deps.sql, principal.orgId, groupId), listGroups(deps.sql, principal.orgId)])
  const byId = new Map(all.map((g) => [g.id, g]))
  const members = rows.map((row) => userJson(row, {
    withApiKey: false, groups: row.group_ids.map((id) => byId.get(id)).filter((g): g is GroupRow => !!g),
  }))
  return { group, members }
}

async function adminGroupAndUser(deps: Deps, principal: Principal, groupId: number, userId: number) {
  requireAdmin(principal)
  const group = await findGroup(deps.sql, principal.orgId, groupId)
  if (!group) throw new NotFound(memberTexts.groupNotFound)
  const user = await findUserById(deps.sql, principal.orgId, userId)
  if (!user) throw new NotFound(memberTexts.userNotFound)
  return { group, user }
}

const AddMemberBody = z.object({ user_id: z.coerce.number({ error: 'user_id is required.' }).int('user_id is required.').positive('user_id is required.') })

/** Add a user to a group; their permissions change at once, in every process. Adding a member twice is fine. */
export async function addMemberToGroup(deps: Deps, principal: Principal, groupId: number, body: unknown) {
  const { user_id } = validate(AddMemberBody, body)
  const { user } = await adminGroupAndUser(deps, principal, groupId, user_id)
  await deps.sql.begin(async (tx) => {
    if (await addGroupMember(tx, groupId, user.id)) {
      await recordAudit(tx, principal, { action: 'add_member', objectType: 'group', objectId: groupId, properties: { member_id: user.id } })
    }
  })
  await deps.bus.invalidate('user', user.id)
  const groupIds = [...new Set([...user.group_ids, groupId])]
  return userJson({ ...user, group_ids: groupIds }, { withApiKey: false, groups: await findGroupsByIds(deps.sql, principal.orgId, groupIds) })
}

/** Take a user out of a group. An admin cannot take themself out of a built-in group (they could lock everyone out). */
export async function removeMemberFromGroup(deps: Deps, principal: Principal, groupId: number, userId: number) {
  const { group, user } = await adminGroupAndUser(deps, principal, groupId, userId)
  if (group.type === 'builtin' && user.id === principal.id) throw new Forbidden(memberTexts.cannotLeaveBuiltin)
  await deps.sql.begin(async (tx) => {
    if (await removeGroupMember(tx, groupId, user.id)) {
      await recordAudit(tx, principal, { action: 'remove_member', objectType: 'group', objectId: groupId, properties: { member_id: user.id } })
    }
  })
  await deps.bus.invalidate('user', user.id)
}
