import type { Db } from '../db/sql.ts'

export interface UserRow {
  id: number
  org_id: number
  name: string
  email: string
  password_hash: string | null
  profile_image_url: string | null
  is_invitation_pending: boolean
  is_email_verified: boolean
  disabled_at: Date | null
  active_at: Date | null
  created_at: Date
  updated_at: Date
  group_ids: number[]
  api_key: string | null
}

const userColumns = (db: Db) => db`
  u.id, u.org_id, u.name, u.email::text as email, u.password_hash, u.profile_image_url, u.is_invitation_pending,
  u.is_email_verified, u.disabled_at, u.active_at, u.created_at, u.updated_at,
  array(select ug.group_id from user_groups ug where ug.user_id = u.id order by 1) as group_ids,
  (select k.api_key from api_keys k where k.user_id = u.id and k.active) as api_key`

export async function findUserById(db: Db, orgId: number, id: number): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${userColumns(db)} from users u where u.id = ${id} and u.org_id = ${orgId}`
  return row
}

export async function findUserByEmail(db: Db, orgId: number, email: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${userColumns(db)} from users u where u.email = ${email} and u.org_id = ${orgId}`
  return row
}

export async function insertUser(
  db: Db, u: { orgId: number; name: string; email: string; passwordHash: string | null; groupIds: number[] },
): Promise<number> {
  const [{ id }] = await db<{ id: number }[]>`
    insert into users (org_id, name, email, password_hash)
    values (${u.orgId}, ${u.name}, ${u.email}, ${u.passwordHash}) returning id`
  if (u.groupIds.length) {
    await db`insert into user_groups ${db(u.groupIds.map((group_id) => ({ user_id: id, group_id })))}`
  }
  return id
}

/** Replace the user's active key; the old one stops working at once. */
export async function replaceApiKey(db: Db, orgId: number, userId: number, apiKey: string) {
  await db`update api_keys set active = false, updated_at = now() where user_id = ${userId} and active`
  await db`insert into api_keys (org_id, api_key, user_id, created_by) values (${orgId}, ${apiKey}, ${userId}, ${userId})`
}

export async function countUsers(db: Db, orgId: number): Promise<number> {
  const [{ count }] = await db<{ count: number }[]>`select count(*)::int as count from users where org_id = ${orgId}`
  return count
}
