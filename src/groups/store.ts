import type { Db } from '../db/index.ts'

export interface GroupRow {
  id: number
  org_id: number
  type: 'builtin' | 'regular'
  name: string
  permissions: string[]
  created_at: Date
}

export async function insertGroup(
  db: Db, g: { orgId: number; name: string; type: 'builtin' | 'regular'; permissions: readonly string[] },
): Promise<GroupRow> {
  const [row] = await db<GroupRow[]>`
    insert into groups (org_id, name, type, permissions)
    values (${g.orgId}, ${g.name}, ${g.type}, ${g.permissions as string[]}) returning *`
  return row
}

export async function findGroupsByIds(db: Db, orgId: number, ids: number[]): Promise<GroupRow[]> {
  if (!ids.length) return []
  return db<GroupRow[]>`select * from groups where org_id = ${orgId} and id = any(${ids}) order by name`
}

export async function listGroups(db: Db, orgId: number): Promise<GroupRow[]> {
  return db<GroupRow[]>`select * from groups where org_id = ${orgId} order by name`
}

export async function findGroup(db: Db, orgId: number, id: number): Promise<GroupRow | undefined> {
  const [row] = await db<GroupRow[]>`select * from groups where org_id = ${orgId} and id = ${id}`
  return row
}

/** Add a user to a group; true when they were not a member yet. */
export async function addGroupMember(db: Db, groupId: number, userId: number): Promise<boolean> {
  const rows = await db`insert into user_groups (user_id, group_id) values (${userId}, ${groupId}) on conflict do nothing`
  return rows.count > 0
}

/** Take a user out of a group; true when they were a member. */
export async function removeGroupMember(db: Db, groupId: number, userId: number): Promise<boolean> {
  const rows = await db`delete from user_groups where user_id = ${userId} and group_id = ${groupId}`
  return rows.count > 0
}

/** Rename a group of the organization; undefined when there is none with that id. */
export async function renameGroup(db: Db, orgId: number, id: number, name: string): Promise<GroupRow | undefined> {
  const [row] = await db<GroupRow[]>`update groups set name = ${name} where org_id = ${orgId} and id = ${id} returning *`
  return row
}

/** Delete a group; its memberships and data-source links go with it (the data sources stay). */
export async function deleteGroup(db: Db, orgId: number, id: number): Promise<boolean> {
  const rows = await db`delete from groups where org_id = ${orgId} and id = ${id}`
  return rows.count > 0
}
