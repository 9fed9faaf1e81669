import type { StoredApiKey } from '../credentials/index.ts'
import { countedPage, orderBy, type CountedPage, type Paging } from '../db/index.ts'
import type { Db } from '../db/index.ts'
import type { ListOrder } from '../shared/list/params.ts'

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
  /** The active API key, sealed (src/credentials/api-keys.ts): opened only to show it to the user themself or an admin. */
  api_key_sealed: string | null
  /** Their own time zone (an IANA name), or null: the organization's. */
  time_zone: string | null
}

const userColumns = (db: Db) => db`
  u.id, u.org_id, u.name, u.email::text as email, u.password_hash, u.profile_image_url, u.is_invitation_pending,
  u.is_email_verified, u.disabled_at, u.active_at, u.created_at, u.updated_at, u.time_zone,
  array(select ug.group_id from user_groups ug where ug.user_id = u.id order by 1) as group_ids,
  (select k.key_sealed from api_keys k where k.user_id = u.id and k.active) as api_key_sealed`

export async function findUserById(db: Db, orgId: number, id: number): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${userColumns(db)} from users u where u.id = ${id} and u.org_id = ${orgId}`
  return row
}

/**
 * The users these ids name (owners, editors, authors), read in one query however many there are; ids of deleted
 * users and of other organizations are simply absent from the map.
 */
export async function usersByIds(db: Db, orgId: number, ids: readonly (number | null)[]): Promise<Map<number, UserRow>> {
  const distinct = [...new Set(ids.filter((id): id is number => id !== null))]
  if (!distinct.length) return new Map()
  const rows = await db<UserRow[]>`select ${userColumns(db)} from users u where u.id = any(${distinct}::bigint[]) and u.org_id = ${orgId}`
  return new Map(rows.map((u) => [u.id, u]))
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

/** Replace the user's active key; the old one stops working at once, and its sealed copy is dropped. */
export async function replaceApiKey(db: Db, orgId: number, userId: number, key: StoredApiKey) {
  await db`update api_keys set active = false, key_sealed = null, updated_at = now() where user_id = ${userId} and active`
  await db`
    insert into api_keys (org_id, key_hash, key_sealed, user_id, created_by)
    values (${orgId}, ${key.hash}, ${key.sealed}, ${userId}, ${userId})`
}

export async function countUsers(db: Db, orgId: number): Promise<number> {
  const [{ count }] = await db<{ count: number }[]>`select count(*)::int as count from users where org_id = ${orgId}`
  return count
}

/** The columns the users list sorts by. */
export const USER_ORDERS = ['name', 'created_at', 'active_at'] as const
export type UserOrder = (typeof USER_ORDERS)[number]

export interface UserListFilter {
  orgId: number
  /** Case-insensitive substring of the name or the email. */
  q?: string
  disabled: boolean
  /** Only pending invitations (true), only accepted ones (false), or both (undefined). */
  pending?: boolean
  order: ListOrder<UserOrder>
}

/** `%` and `_` in a search term match themselves. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

/** One page of the organization's users, and how many match in all; users never active sort as the least active. */
export async function listUsers(db: Db, f: UserListFilter, paging: Paging, o: { pastEnd: 'empty' | 'last' }): Promise<CountedPage<UserRow>> {
  const pattern = f.q ? likePattern(f.q) : null
  const where = db`
    u.org_id = ${f.orgId}
    and (u.disabled_at is not null) = ${f.disabled}
    ${f.pending === undefined ? db`` : db`and u.is_invitation_pending = ${f.pending}`}
    ${pattern ? db`and (u.name ilike ${pattern} or u.email::text ilike ${pattern})` : db``}`
  const ordering = {
    columns: { name: db`lower(u.name)`, created_at: db`u.created_at`, active_at: db`u.active_at` },
    nulls: 'low' as const,
    tieBreaker: db`u.id`,
  }
  return countedPage<UserRow>(db, { columns: userColumns(db), from: db`users u`, where, orderBy: orderBy(db, ordering, f.order) }, paging, o)
}

/** The members of a group, by name. */
export async function listGroupMembers(db: Db, orgId: number, groupId: number): Promise<UserRow[]> {
  return db<UserRow[]>`
    select ${userColumns(db)} from users u join user_groups ug on ug.user_id = u.id
    where ug.group_id = ${groupId} and u.org_id = ${orgId}
    order by lower(u.name), u.id`
}

/** Change what is given of a user's name, email and password hash. */
export async function updateUserFields(db: Db, orgId: number, id: number, fields: { name?: string; email?: string; passwordHash?: string; timeZone?: string | null }) {
  const set: Record<string, string | null> = {}
  if (fields.name !== undefined) set.name = fields.name
  if (fields.email !== undefined) set.email = fields.email
  if (fields.passwordHash !== undefined) set.password_hash = fields.passwordHash
  if (fields.timeZone !== undefined) set.time_zone = fields.timeZone
  if (!Object.keys(set).length) return
  await db`update users set ${db(set)}, updated_at = now() where id = ${id} and org_id = ${orgId}`
}

/** Make the user a member of exactly these groups. */
export async function replaceUserGroups(db: Db, userId: number, groupIds: number[]) {
  await db`delete from user_groups where user_id = ${userId} and group_id <> all(${groupIds}::bigint[])`
  if (groupIds.length) {
    await db`insert into user_groups ${db(groupIds.map((group_id) => ({ user_id: userId, group_id })))} on conflict do nothing`
  }
}

/** End the user's sessions, except the one named by `keepTokenHash` (the caller's own); returns how many ended. */
export async function deleteUserSessions(db: Db, userId: number, keepTokenHash: Buffer | null): Promise<number> {
  const rows = keepTokenHash
    ? await db`delete from sessions where user_id = ${userId} and token_hash <> ${keepTokenHash}`
    : await db`delete from sessions where user_id = ${userId}`
  return rows.count
}

/** A new user waiting for their invitation to be accepted: no password, so nobody can sign in as them yet. */
export async function insertPendingUser(db: Db, u: { orgId: number; name: string; email: string; groupIds: number[] }): Promise<number> {
  const id = await insertUser(db, { ...u, passwordHash: null })
  await db`update users set is_invitation_pending = true where id = ${id}`
  return id
}

/** Disable the user (from now, or from when they already were) or enable them. */
export async function setUserDisabled(db: Db, orgId: number, id: number, disabled: boolean): Promise<void> {
  await db`
    update users set disabled_at = ${disabled ? db`coalesce(disabled_at, now())` : null}, updated_at = now()
    where id = ${id} and org_id = ${orgId}`
}

export async function deleteUserRow(db: Db, orgId: number, id: number): Promise<void> {
  await db`delete from users where id = ${id} and org_id = ${orgId}`
}

export type UserTokenPurpose = 'invite' | 'reset' | 'verify' | 'sign_in'

/** Keep a link's token (by its hash); the user's older unused links of the same purpose stop working. */
export async function insertUserToken(db: Db, t: { tokenHash: Buffer; userId: number; purpose: UserTokenPurpose; expiresAt: Date }) {
  await db`delete from user_tokens where user_id = ${t.userId} and purpose = ${t.purpose} and used_at is null`
  await db`
    insert into user_tokens (token_hash, user_id, purpose, expires_at)
    values (${t.tokenHash}, ${t.userId}, ${t.purpose}, ${t.expiresAt})`
}

/**
 * Use a link's token once: marks it used and returns its user, or nothing when it is unknown, of another purpose,
 * expired or already used (one UPDATE, so two requests racing with the same link cannot both succeed).
 */
export async function useUserToken(db: Db, tokenHash: Buffer, purpose: UserTokenPurpose): Promise<number | undefined> {
  const [row] = await db<{ user_id: number }[]>`
    update user_tokens set used_at = now()
    where token_hash = ${tokenHash} and purpose = ${purpose} and used_at is null and expires_at > now()
    returning user_id`
  return row?.user_id
}

/** Forget the user's unused links of one purpose (an email verification link once the address it was sent to changed). */
export async function deleteUnusedUserTokens(db: Db, userId: number, purpose: UserTokenPurpose): Promise<void> {
  await db`delete from user_tokens where user_id = ${userId} and purpose = ${purpose} and used_at is null`
}

/** Forget the user's unused links (the user was disabled: no link of theirs may open a session). */
export async function deleteUserTokens(db: Db, userId: number): Promise<void> {
  await db`delete from user_tokens where user_id = ${userId} and used_at is null`
}

/** When the user's unused link of this purpose was made, if they have one (issuing a link replaces the previous). */
export async function latestUnusedUserTokenAt(db: Db, userId: number, purpose: UserTokenPurpose): Promise<Date | undefined> {
  const [row] = await db<{ created_at: Date }[]>`
    select max(created_at) as created_at from user_tokens where user_id = ${userId} and purpose = ${purpose} and used_at is null`
  return row?.created_at ?? undefined
}

/** Whether a link's token would still open (known, this purpose, unused, unexpired), without using it: for GET. */
export async function findUsableUserToken(db: Db, tokenHash: Buffer, purpose: UserTokenPurpose): Promise<number | undefined> {
  const [row] = await db<{ user_id: number }[]>`
    select user_id from user_tokens
    where token_hash = ${tokenHash} and purpose = ${purpose} and used_at is null and expires_at > now()`
  return row?.user_id
}

/** A password chosen through an invitation or reset link: set it and the invitation counts as accepted. */
export async function setPasswordFromLink(db: Db, id: number, passwordHash: string): Promise<void> {
  await db`update users set password_hash = ${passwordHash}, is_invitation_pending = false, updated_at = now() where id = ${id}`
}

/**
 * How many account mails (invitations, resent invitations, password resets) the organization's admins asked for in
 * the last hour, read from the events each of them records.
 */
export async function countRecentAccountMails(db: Db, orgId: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from events
    where org_id = ${orgId} and created_at > now() - interval '1 hour'
      and object_type = 'user' and action in ('create', 'invite', 'reset_password')`
  return row.n
}

/** Mark the user's email address verified (its link was opened) or not (the address changed). */
export async function setEmailVerified(db: Db, id: number, verified: boolean): Promise<void> {
  await db`update users set is_email_verified = ${verified}, updated_at = now() where id = ${id}`
}

/**
 * A user an identity provider vouched for at sign-in: its name follows the provider's, and a pending invitation is
 * settled, since they have now proved who they are.
 */
export async function markExternallySignedIn(db: Db, orgId: number, userId: number, name: string) {
  await db`
    update users set name = ${name}, is_invitation_pending = false, updated_at = now()
    where id = ${userId} and org_id = ${orgId} and (name <> ${name} or is_invitation_pending)`
}

/** A signed-in session as its owner sees it; the token's hash only to tell the caller's own. */
export interface SessionRow {
  id: number
  token_hash: Buffer
  created_at: Date
  last_seen_at: Date
  expires_at: Date
  user_agent: string | null
  ip: string | null
}

/** A user's live sessions, most recently used first. */
export async function liveSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return db<SessionRow[]>`
    select id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip from sessions
    where user_id = ${userId} and expires_at > now() order by last_seen_at desc, id desc`
}

/** End one of a user's sessions; returns its token's hash (to evict it from caches), undefined when none. */
export async function deleteSessionById(db: Db, userId: number, sessionId: number): Promise<Buffer | undefined> {
  const [row] = await db<{ token_hash: Buffer }[]>`
    delete from sessions where user_id = ${userId} and id = ${sessionId} returning token_hash`
  return row?.token_hash
}

/** A user's own time zone, or null when they named none (the organization's is used). */
export async function findUserTimeZone(db: Db, orgId: number, id: number): Promise<string | null> {
  const [row] = await db<{ time_zone: string | null }[]>`select time_zone from users where id = ${id} and org_id = ${orgId}`
  return row?.time_zone ?? null
}
