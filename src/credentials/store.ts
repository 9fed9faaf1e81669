import type { Db, Sql } from '../db/index.ts'
import { withAsyncCommit } from '../db/index.ts'

/** A user as authentication sees them: identity, groups and the union of their groups' permissions. */
export interface PrincipalRow {
  id: number
  org_id: number
  name: string
  email: string
  profile_image_url: string | null
  is_email_verified: boolean
  group_ids: number[]
  permissions: string[]
}

const principalColumns = (db: Db) => db`
  u.id, u.org_id, u.name, u.email::text as email, u.profile_image_url, u.is_email_verified,
  array(select ug.group_id from user_groups ug where ug.user_id = u.id order by 1) as group_ids,
  array(select distinct p from user_groups ug join groups g on g.id = ug.group_id, unnest(g.permissions) p
        where ug.user_id = u.id order by 1) as permissions`

/** The signed-in user of a live session; sessions of disabled users do not count. */
export async function findPrincipalBySession(db: Db, tokenHash: Buffer): Promise<(PrincipalRow & { remember: boolean }) | undefined> {
  const [row] = await db<(PrincipalRow & { remember: boolean })[]>`
    select ${principalColumns(db)}, s.remember
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.expires_at > now() and u.disabled_at is null`
  return row
}

/** The user whose active key has this sha-256 (keys are stored only hashed and sealed, src/credentials/api-keys.ts). */
export async function findPrincipalByApiKeyHash(db: Db, keyHash: Buffer): Promise<PrincipalRow | undefined> {
  const [row] = await db<PrincipalRow[]>`
    select ${principalColumns(db)}
    from api_keys k join users u on u.id = k.user_id
    where k.key_hash = ${keyHash} and k.active and u.disabled_at is null`
  return row
}

/** A user as they are now (groups and permissions), unless disabled: whose rights an object's key carries. */
export async function findActivePrincipal(db: Db, userId: number): Promise<PrincipalRow | undefined> {
  const [row] = await db<PrincipalRow[]>`
    select ${principalColumns(db)} from users u where u.id = ${userId} and u.disabled_at is null`
  return row
}

/** Keys still in plain text from before migration 0010, a batch at a time. */
export async function legacyPlainApiKeys(db: Db, limit: number): Promise<{ id: number; key: string }[]> {
  return db<{ id: number; key: string }[]>`
    select id, legacy_plain_key as key from api_keys where legacy_plain_key is not null order by id limit ${limit}`
}

/** Keep the sealed copy and forget the plain one (several processes may do this at once: the same key either way). */
export async function sealLegacyApiKeys(db: Db, keys: { id: number; sealed: string }[]) {
  if (!keys.length) return
  await db`
    update api_keys k set key_sealed = v.sealed, legacy_plain_key = null
    from unnest(${keys.map((k) => k.id)}::bigint[], ${keys.map((k) => k.sealed)}::text[]) as v(id, sealed)
    where k.id = v.id and k.legacy_plain_key is not null`
}

export async function insertSession(
  db: Db, s: { tokenHash: Buffer; userId: number; remember: boolean; ttlSeconds: number; userAgent?: string; ip?: string },
) {
  await db`
    insert into sessions (token_hash, user_id, remember, expires_at, user_agent, ip)
    values (${s.tokenHash}, ${s.userId}, ${s.remember}, now() + make_interval(secs => ${s.ttlSeconds}),
            ${s.userAgent ?? null}, ${s.ip ?? null})`
}

/** Slide a session's expiry forward and note the user as active; cheap enough to run once per cache refresh. */
export async function touchSession(db: Db, tokenHash: Buffer, ttlSeconds: number) {
  await db`
    with s as (
      update sessions set expires_at = now() + make_interval(secs => ${ttlSeconds}), last_seen_at = now()
      where token_hash = ${tokenHash} returning user_id)
    update users set active_at = now() from s where users.id = s.user_id`
}

export async function deleteSession(db: Db, tokenHash: Buffer) {
  await db`delete from sessions where token_hash = ${tokenHash}`
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const rows = await db`delete from sessions where expires_at < now()`
  return rows.count
}

/** Failed or in-progress sign-ins in the throttle's window, for one account and one address. */
export interface SignInAttemptCounts {
  addressFailures: number
  addressOldestMs: number | undefined
  accountFailures: number
  accountLatestMs: number | undefined
}

/**
 * What an attempt tries: a sign-in (the default; "forgot password" requests count here under keys of their own), or
 * the current password a signed-in user gives to change it. Each is counted only with its own kind.
 */
export type AttemptPurpose = 'sign_in' | 'current_password' | 'forgot'

/**
 * Count the recent attempts on an account and from an address and, if `admit` agrees, record this attempt (before
 * its password is checked, so attempts running at once count each other). A transaction-scoped lock per account
 * serialises this across processes: two attempts cannot both slip past an account's delay. Returns the new
 * attempt's id, or undefined when it was not admitted. The commit does not wait for the disk: a lost row after an
 * operating-system crash only forgets one attempt.
 */
export async function claimSignInAttempt(
  sql: Sql, a: { account: Buffer; address: string; at: Date; since: Date; purpose?: AttemptPurpose },
  admit: (counts: SignInAttemptCounts) => boolean,
): Promise<{ id: number | undefined; counts: SignInAttemptCounts }> {
  const purpose = a.purpose ?? 'sign_in'
  return withAsyncCommit(sql, async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('sightline_sign_in'), ${a.account.readInt32BE(0)})`
    const [row] = await tx<{ address_failures: number; address_oldest: Date | null; account_failures: number; account_latest: Date | null }[]>`
      select
        (select count(*)::int from sign_in_attempts
          where address = ${a.address} and attempted_at > ${a.since} and purpose = ${purpose}) as address_failures,
        (select min(attempted_at) from sign_in_attempts
          where address = ${a.address} and attempted_at > ${a.since} and purpose = ${purpose}) as address_oldest,
        (select count(*)::int from sign_in_attempts
          where account = ${a.account} and attempted_at > ${a.since} and purpose = ${purpose}) as account_failures,
        (select max(attempted_at) from sign_in_attempts
          where account = ${a.account} and attempted_at > ${a.since} and purpose = ${purpose}) as account_latest`
    const counts = {
      addressFailures: row.address_failures, addressOldestMs: row.address_oldest?.getTime(),
      accountFailures: row.account_failures, accountLatestMs: row.account_latest?.getTime(),
    }
    if (!admit(counts)) return { id: undefined, counts }
    const [{ id }] = await tx<{ id: number }[]>`
      insert into sign_in_attempts (account, address, attempted_at, purpose)
      values (${a.account}, ${a.address}, ${a.at}, ${purpose}) returning id`
    return { id, counts }
  })
}

/**
 * Whether the account with this email has a live session opened from this address: where its owner usually signs
 * in. Asked the same way whether or not the email has an account, so the time taken tells nothing.
 */
export async function hasSessionFrom(db: Db, a: { orgId: number; email: string; address: string }): Promise<boolean> {
  const [{ known }] = await db<{ known: boolean }[]>`
    select exists(
      select 1 from users u join sessions s on s.user_id = u.id
      where u.org_id = ${a.orgId} and u.email = ${a.email} and u.disabled_at is null
        and s.ip = ${a.address} and s.expires_at > now()) as known`
  return known
}

/** A right password: this attempt and the address's earlier failures on the account no longer count. */
export async function forgetSignInFailures(db: Db, a: { id: number; account: Buffer; address: string; purpose?: AttemptPurpose }) {
  await db`
    delete from sign_in_attempts
    where id = ${a.id} or (account = ${a.account} and address = ${a.address} and purpose = ${a.purpose ?? 'sign_in'})`
}

export async function dropSignInAttempt(db: Db, id: number) {
  await db`delete from sign_in_attempts where id = ${id}`
}

export async function deleteSignInAttemptsBefore(db: Db, before: Date): Promise<number> {
  const rows = await db`delete from sign_in_attempts where attempted_at < ${before}`
  return rows.count
}
