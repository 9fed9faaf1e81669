import type { GroupJson } from '../shared/api/users.ts'
import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import { groupPolicy, requireRight } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { iso } from '../shared/time.ts'
import { findGroup, listGroups, type GroupRow } from './store.ts'

export function groupJson(g: GroupRow): GroupJson {
  return { id: g.id, name: g.name, type: g.type, permissions: g.permissions, created_at: iso(g.created_at) }
}

/** Admins see every group; others only their own (reference §2.5). */
export async function visibleGroups(deps: Deps, principal: Principal): Promise<GroupRow[]> {
  const all = await listGroups(deps.sql, principal.orgId)
  return all.filter((g) => groupPolicy(principal, g).view === true)
}

export async function visibleGroup(deps: Deps, principal: Principal, id: number): Promise<GroupRow> {
  const group = await findGroup(deps.sql, principal.orgId, id)
  if (!group) throw new NotFound()
  requireRight(groupPolicy(principal, group).view)
  return group
}

export const memberTexts = {
  cannotLeaveBuiltin: 'You cannot remove yourself from a built-in group.',
  groupNotFound: 'Group not found.',
  userNotFound: 'User not found.',
}

/** Who may see a group's members: admins, and its members who may list users (reference §2.5). */
export function canSeeMembers(principal: Principal, groupId: number): boolean {
  return groupPolicy(principal, { id: groupId }).seeMembers === true
}
