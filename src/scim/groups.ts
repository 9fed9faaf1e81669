import { recordEvent } from '../events/index.ts'
import { deleteGroup, insertGroup, renameGroup } from '../groups/index.ts'
import { DEFAULT_PERMISSIONS } from '../permissions/index.ts'
import { groupPatch, scimText, type GroupChanges } from './patch.ts'
import { groupResource, listResponse, paging, parseEqFilter, ScimError } from './resources.ts'
import { existingUserIds, findScimGroup, replaceGroupMembers, scimGroups, setGroupExternalId, type ScimGroupRow } from './store.ts'
import type { ScimContext } from './users.ts'

/**
 * SCIM Groups (RFC 7643 §4.2) over Sightline's groups. Members of any group may change, except the admin group's:
 * who is an admin stays an admin's decision in Sightline, so a provider's token cannot make anyone one. Built-in
 * groups keep their names and cannot be deleted.
 */

const via = { via: 'scim' }

function groupId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw new ScimError(404, `Group ${id.slice(0, 50)} not found.`)
  return Number(id)
}

async function loadGroup(s: ScimContext, id: string, withMembers = true): Promise<ScimGroupRow> {
  const group = await findScimGroup(s.deps.sql, s.orgId, groupId(id), withMembers)
  if (!group) throw new ScimError(404, `Group ${id.slice(0, 50)} not found.`)
  return group
}

const isAdminGroup = (g: ScimGroupRow) => g.type === 'builtin' && g.name === 'admin'

export async function listScimGroups(s: ScimContext, query: Record<string, string | undefined>) {
  const filter = parseEqFilter(query.filter, ['displayName'])
  const page = paging(query)
  // Entra ID asks for groups without their members (excludedAttributes=members) when it only wants to find one
  const withMembers = !/\bmembers\b/.test(query.excludedAttributes ?? '')
  const { total, rows } = await scimGroups(s.deps.sql, s.orgId, filter ? { name: filter.value } : {}, page.offset, page.limit, withMembers)
  return listResponse(rows.map((g) => groupResource(g, s.base)), total, page.startIndex)
}

export async function getScimGroup(s: ScimContext, id: string, query: Record<string, string | undefined> = {}) {
  return groupResource(await loadGroup(s, id, !/\bmembers\b/.test(query.excludedAttributes ?? '')), s.base)
}

function memberChanges(body: Record<string, unknown>): GroupChanges {
  const members = Array.isArray(body.members) ? body.members : []
  return {
    displayName: scimText(body.displayName, 'displayName', 255),
    externalId: typeof body.externalId === 'string' ? body.externalId : undefined,
    replaceMembers: members.map((m) => String((m as { value?: unknown })?.value ?? '')),
    addMembers: [], removeMembers: [],
  }
}

async function applyGroupChanges(s: ScimContext, group: ScimGroupRow, c: GroupChanges) {
  const touchesMembers = c.replaceMembers !== undefined || c.addMembers.length > 0 || c.removeMembers.length > 0 || c.removeAllMembers
  if (touchesMembers && isAdminGroup(group)) throw new ScimError(403, 'The members of the admin group cannot be changed through SCIM.')
  const renaming = c.displayName !== undefined && c.displayName !== group.name
  if (renaming && group.type === 'builtin') throw new ScimError(400, "Built-in groups can't be renamed.", 'mutability')
  const current = (group.members ?? []).map((m) => m.id)
  let target: number[] | undefined
  if (touchesMembers) {
    const wanted = (ids: string[]) => ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number)
    const base = c.removeAllMembers ? [] : c.replaceMembers !== undefined ? wanted(c.replaceMembers) : current
    const added = await existingUserIds(s.deps.sql, s.orgId, [...new Set([...base, ...wanted(c.addMembers)])])
    const removed = new Set(wanted(c.removeMembers))
    target = added.filter((id) => !removed.has(id))
  }
  let changed: { added: number[]; removed: number[] } = { added: [], removed: [] }
  try {
    await s.deps.sql.begin(async (tx) => {
      if (renaming) {
        await renameGroup(tx, s.orgId, group.id, c.displayName!)
        await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'edit', objectType: 'group', objectId: group.id, properties: { ...via, name: c.displayName } })
      }
      if (c.externalId !== undefined) await setGroupExternalId(tx, group.id, c.externalId)
      if (target) {
        changed = await replaceGroupMembers(tx, group.id, target)
        for (const id of changed.added) await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'add_member', objectType: 'group', objectId: group.id, properties: { ...via, member_id: id } })
        for (const id of changed.removed) await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'remove_member', objectType: 'group', objectId: group.id, properties: { ...via, member_id: id } })
      }
    })
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ScimError(409, `A group named ${c.displayName} already exists.`, 'uniqueness')
    throw error
  }
  for (const id of [...changed.added, ...changed.removed]) await s.deps.bus.invalidate('user', id)
  return getScimGroup(s, String(group.id))
}

export async function createScimGroup(s: ScimContext, body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ScimError(400, 'A group must be a JSON object.', 'invalidSyntax')
  const c = memberChanges(body as Record<string, unknown>)
  let created: ScimGroupRow
  try {
    created = await s.deps.sql.begin(async (tx) => {
      const g = await insertGroup(tx, { orgId: s.orgId, name: c.displayName!, type: 'regular', permissions: DEFAULT_PERMISSIONS })
      await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'create', objectType: 'group', objectId: g.id, properties: via })
      return { id: g.id, name: g.name, type: g.type, created_at: g.created_at, scim_external_id: null, members: [] }
    })
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ScimError(409, `A group named ${c.displayName} already exists.`, 'uniqueness')
    throw error
  }
  return applyGroupChanges(s, created, { ...c, displayName: undefined })
}

export async function patchScimGroup(s: ScimContext, id: string, body: unknown) {
  const changes = groupPatch(body)
  const group = await loadGroup(s, id)
  await applyGroupChanges(s, group, changes)
}

export async function replaceScimGroup(s: ScimContext, id: string, body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ScimError(400, 'A group must be a JSON object.', 'invalidSyntax')
  const group = await loadGroup(s, id)
  return applyGroupChanges(s, group, memberChanges(body as Record<string, unknown>))
}

export async function deleteScimGroup(s: ScimContext, id: string) {
  const group = await loadGroup(s, id, false)
  if (group.type === 'builtin') throw new ScimError(400, 'Built-in groups cannot be deleted.', 'mutability')
  const members = (await loadGroup(s, id)).members ?? []
  await s.deps.sql.begin(async (tx) => {
    await deleteGroup(tx, s.orgId, group.id)
    await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'delete', objectType: 'group', objectId: group.id, properties: via })
  })
  for (const m of members) await s.deps.bus.invalidate('user', m.id)
}
