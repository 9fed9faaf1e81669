import type { Db } from '../db/index.ts'

/** The organization whose SCIM token has this hash, if any. */
export async function findScimTokenOrg(db: Db, tokenHash: Buffer): Promise<number | undefined> {
  const [row] = await db<{ org_id: number }[]>`select org_id from scim_tokens where token_hash = ${tokenHash}`
  return row?.org_id
}

/** Replace the organization's token (the old one stops working at once). */
export async function replaceScimToken(db: Db, orgId: number, tokenHash: Buffer, createdBy: number): Promise<void> {
  await db`
    insert into scim_tokens (org_id, token_hash, created_by) values (${orgId}, ${tokenHash}, ${createdBy})
    on conflict (org_id) do update set token_hash = excluded.token_hash, created_by = excluded.created_by, created_at = now()`
}

export async function deleteScimToken(db: Db, orgId: number): Promise<boolean> {
  return (await db`delete from scim_tokens where org_id = ${orgId}`).count > 0
}

export async function scimTokenCreatedAt(db: Db, orgId: number): Promise<Date | undefined> {
  const [row] = await db<{ created_at: Date }[]>`select created_at from scim_tokens where org_id = ${orgId}`
  return row?.created_at
}

export interface ScimUserRow {
  id: number
  name: string
  email: string
  disabled_at: Date | null
  created_at: Date
  updated_at: Date
  scim_external_id: string | null
  groups: { id: number; name: string }[]
}

const userColumns = (db: Db) => db`
  u.id, u.name, u.email::text as email, u.disabled_at, u.created_at, u.updated_at, u.scim_external_id,
  coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
    from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = u.id), '[]') as groups`

/** A page of users (1-based `startIndex`), optionally those with this e-mail; with the total matching. */
export async function scimUsers(db: Db, orgId: number, f: { email?: string; externalId?: string }, offset: number, limit: number) {
  const where = db`u.org_id = ${orgId}
    ${f.email !== undefined ? db`and u.email = ${f.email}` : db``}
    ${f.externalId !== undefined ? db`and u.scim_external_id = ${f.externalId}` : db``}`
  const [{ total }] = await db<{ total: number }[]>`select count(*)::int as total from users u where ${where}`
  const rows = limit > 0 ? await db<ScimUserRow[]>`select ${userColumns(db)} from users u where ${where} order by u.id offset ${offset} limit ${limit}` : []
  return { total, rows }
}

export async function findScimUser(db: Db, orgId: number, id: number): Promise<ScimUserRow | undefined> {
  const [row] = await db<ScimUserRow[]>`select ${userColumns(db)} from users u where u.org_id = ${orgId} and u.id = ${id}`
  return row
}

export async function setUserExternalId(db: Db, id: number, externalId: string | null): Promise<void> {
  await db`update users set scim_external_id = ${externalId} where id = ${id}`
}

export interface ScimGroupRow {
  id: number
  name: string
  type: 'builtin' | 'regular'
  created_at: Date
  scim_external_id: string | null
  members: { id: number; name: string }[] | null
}

const groupColumns = (db: Db, withMembers: boolean) => db`
  g.id, g.name, g.type, g.created_at, g.scim_external_id,
  ${withMembers ? db`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by u.id)
    from user_groups ug join users u on u.id = ug.user_id where ug.group_id = g.id), '[]')` : db`null`} as members`

export async function scimGroups(db: Db, orgId: number, f: { name?: string }, offset: number, limit: number, withMembers: boolean) {
  const where = db`g.org_id = ${orgId} ${f.name !== undefined ? db`and lower(g.name) = lower(${f.name})` : db``}`
  const [{ total }] = await db<{ total: number }[]>`select count(*)::int as total from groups g where ${where}`
  const rows = limit > 0
    ? await db<ScimGroupRow[]>`select ${groupColumns(db, withMembers)} from groups g where ${where} order by g.id offset ${offset} limit ${limit}`
    : []
  return { total, rows }
}

export async function findScimGroup(db: Db, orgId: number, id: number, withMembers = true): Promise<ScimGroupRow | undefined> {
  const [row] = await db<ScimGroupRow[]>`select ${groupColumns(db, withMembers)} from groups g where g.org_id = ${orgId} and g.id = ${id}`
  return row
}

export async function setGroupExternalId(db: Db, id: number, externalId: string | null): Promise<void> {
  await db`update groups set scim_external_id = ${externalId} where id = ${id}`
}

/** Which of these ids are users of the organization. */
export async function existingUserIds(db: Db, orgId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return []
  const rows = await db<{ id: number }[]>`select id from users where org_id = ${orgId} and id = any(${ids}::bigint[])`
  return rows.map((r) => r.id)
}

/** The group's members are exactly these users; returns who was added and who removed. */
export async function replaceGroupMembers(db: Db, groupId: number, userIds: number[]) {
  const removed = await db<{ user_id: number }[]>`
    delete from user_groups where group_id = ${groupId} and user_id <> all(${userIds}::bigint[]) returning user_id`
  const added = userIds.length ? await db<{ user_id: number }[]>`
    insert into user_groups ${db(userIds.map((user_id) => ({ user_id, group_id: groupId })))} on conflict do nothing returning user_id` : []
  return { added: added.map((r) => r.user_id), removed: removed.map((r) => r.user_id) }
}
