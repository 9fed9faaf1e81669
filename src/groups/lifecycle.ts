import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { BadRequest, Conflict, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { DEFAULT_PERMISSIONS, requireAdmin } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { LIMITS, tooLong, validate } from '../validation/index.ts'
import { deleteGroup, findGroup, insertGroup, renameGroup, type GroupRow } from './store.ts'

/** Creating, renaming and deleting groups (spec 3 §6 "Group rules", reference §2.5): admins only, built-in groups fixed. */
export const groupTexts = {
  nameRequired: 'Name: This field is required.',
  nameTaken: 'A group with this name already exists.',
  cannotModifyBuiltin: "Can't modify built-in groups.",
  cannotDeleteBuiltin: 'Cannot delete built-in group',
  groupNotFound: 'Group not found.',
}

const name = z.string({ error: (issue) => (issue.input == null ? groupTexts.nameRequired : 'Name must be text.') })
  .trim().max(LIMITS.name, tooLong('Name', LIMITS.name))
const CreateBody = z.object({ name: name.min(1, groupTexts.nameRequired) })
/** A rename with a blank or missing name changes nothing (spec 3 §6). */
const RenameBody = z.object({ name: name.nullish() })

/** Group names are unique per organization; the database decides, so two admins saving at once cannot both win. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Conflict(groupTexts.nameTaken)
    throw error
  }
}

async function adminGroup(deps: Deps, principal: Principal | undefined, id: number) {
  const admin = requireAdmin(principal)
  const group = await findGroup(deps.sql, admin.orgId, id)
  if (!group) throw new NotFound(groupTexts.groupNotFound)
  return { admin, group }
}

/** A new regular group with the default permissions (reference §2.2), no members and no data sources. */
export async function createGroup(deps: Deps, principal: Principal | undefined, body: unknown): Promise<GroupRow> {
  const admin = requireAdmin(principal)
  const { name } = validate(CreateBody, body)
  return uniqueName(() => audited(deps.sql, admin, (group) => ({ action: 'create', objectType: 'group', objectId: group.id }), (tx) =>
    insertGroup(tx, { orgId: admin.orgId, name, type: 'regular', permissions: DEFAULT_PERMISSIONS })))
}

/** Rename a regular group; a blank name is ignored and the group answered unchanged. */
export async function renameRegularGroup(deps: Deps, principal: Principal | undefined, id: number, body: unknown): Promise<GroupRow> {
  const { admin, group } = await adminGroup(deps, principal, id)
  const { name } = validate(RenameBody, body)
  if (group.type === 'builtin') throw new BadRequest(groupTexts.cannotModifyBuiltin)
  if (!name || name === group.name) return group
  const renamed = await uniqueName(() => audited(deps.sql, admin, { action: 'edit', objectType: 'group', objectId: id, properties: { name } }, async (tx) => {
    const row = await renameGroup(tx, admin.orgId, id, name)
    if (!row) throw new NotFound(groupTexts.groupNotFound)
    return row
  }))
  // sessions show their groups by name
  await deps.bus.invalidate('org', admin.orgId)
  return renamed
}

/** Delete a regular group: its members lose what it gave them at once; its data sources stay. */
export async function deleteRegularGroup(deps: Deps, principal: Principal | undefined, id: number): Promise<void> {
  const { admin, group } = await adminGroup(deps, principal, id)
  if (group.type === 'builtin') throw new BadRequest(groupTexts.cannotDeleteBuiltin)
  await audited(deps.sql, admin, { action: 'delete', objectType: 'group', objectId: id, properties: { name: group.name } }, (tx) => deleteGroup(tx, admin.orgId, id))
  await deps.bus.invalidate('org', admin.orgId)
}
