import { z } from 'zod'
import type { Deps } from '../deps.ts'
import * as dataSources from '../data-sources/store.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { recordEvent } from '../events/service.ts'
import { validate } from '../validation/validate.ts'
import { allowed, isAdmin } from '../permissions/can.ts'
import type { Principal } from '../permissions/principal.ts'
import { requireAdmin } from '../permissions/require.ts'
import { iso } from '../shared/time.ts'
import { findUserById, listGroupMembers } from '../users/store.ts'
import { userJson } from '../users/serialize.ts'
import { addGroupMember, findGroup, findGroupsByIds, listGroups, removeGroupMember, type GroupRow } from './store.ts'

export function groupJson(g: GroupRow) {
  return { id: g.id, name: g.name, type: g.type, permissions: g.permissions, created_at: iso(g.created_at) }
}

/** Admins see every group; others only their own (reference §2.5). */
export async function visibleGroups(deps: Deps, principal: Principal): Promise<GroupRow[]> {
  const all = await listGroups(deps.sql, principal.orgId)
  return isAdmin(principal) ? all : all.filter((g) => principal.groupIds.includes(g.id))
}

export async function visibleGroup(deps: Deps, principal: Principal, id: number): Promise<GroupRow> {
  const group = await findGroup(deps.sql, principal.orgId, id)
  if (!group) throw new NotFound()
  if (!isAdmin(principal) && !principal.groupIds.includes(id)) throw new Forbidden()
  return group
}

async function adminGroupAndSource(deps: Deps, principal: Principal, groupId: number, dataSourceId: number) {
  requireAdmin(principal)
  const group = await findGroup(deps.sql, principal.orgId, groupId)
  if (!group) throw new NotFound('Group not found.')
  const ds = await dataSources.findById(deps.sql, principal.orgId, dataSourceId)
  if (!ds) throw new NotFound('Data source not found.')
  return { group, ds }
}

export async function groupDataSources(deps: Deps, principal: Principal, groupId: number) {
  requireAdmin(principal)
  if (!(await findGroup(deps.sql, principal.orgId, groupId))) throw new NotFound()
  return dataSources.listForGroup(deps.sql, principal.orgId, groupId)
}

const AddBody = z.object({ data_source_id: z.coerce.number({ error: 'data_source_id is required.' }).int().positive() })
const ViewOnlyBody = z.object({ view_only: z.boolean({ error: 'view_only must be true or false.' }) })

export async function addDataSourceToGroup(deps: Deps, principal: Principal, groupId: number, body: unknown) {
  const { data_source_id } = validate(AddBody, body)
  const { ds } = await adminGroupAndSource(deps, principal, groupId, data_source_id)
  await deps.sql.begin(async (tx) => {
    await dataSources.addToGroup(tx, ds.id, groupId, false)
    await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, action: 'add_data_source', objectType: 'group', objectId: groupId, properties: { data_source_id: ds.id } })
  })
  await deps.bus.invalidate('org', principal.orgId)
  return { ...ds, view_only: false }
}

export async function setGroupDataSourceViewOnly(deps: Deps, principal: Principal, groupId: number, dataSourceId: number, body: unknown) {
  const { view_only } = validate(ViewOnlyBody, body)
  const { ds } = await adminGroupAndSource(deps, principal, groupId, dataSourceId)
  await deps.sql.begin(async (tx) => {
    if (!(await dataSources.setGroupViewOnly(tx, dataSourceId, groupId, view_only))) throw new BadRequest('The data source is not in this group.')
    await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, action: 'change_data_source_permission', objectType: 'group', objectId: groupId, properties: { data_source_id: dataSourceId, view_only } })
  })
  return { ...ds, view_only }
}

export async function removeDataSourceFromGroup(deps: Deps, principal: Principal, groupId: number, dataSourceId: number) {
  await adminGroupAndSource(deps, principal, groupId, dataSourceId)
  await deps.sql.begin(async (tx) => {
    await dataSources.removeFromGroup(tx, dataSourceId, groupId)
    await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, action: 'remove_data_source', objectType: 'group', objectId: groupId, properties: { data_source_id: dataSourceId } })
  })
}

export const memberTexts = {
  cannotLeaveBuiltin: 'You cannot remove yourself from a built-in group.',
  groupNotFound: 'Group not found.',
  userNotFound: 'User not found.',
}

/** Who may see a group's members: admins, and its members who may list users (reference §2.5). */
export function canSeeMembers(principal: Principal, groupId: number): boolean {
  return isAdmin(principal) || (allowed(principal, 'list_users') && principal.groupIds.includes(groupId))
}

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
      await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, action: 'add_member', objectType: 'group', objectId: groupId, properties: { member_id: user.id } })
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
      await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, action: 'remove_member', objectType: 'group', objectId: groupId, properties: { member_id: user.id } })
    }
  })
  await deps.bus.invalidate('user', user.id)
}
