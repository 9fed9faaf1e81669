import type { Db } from '../db/index.ts'

export type FlowMethod = 'oidc' | 'google'

export interface SignInFlow {
  method: FlowMethod
  code_verifier: string
  nonce: string
  next_path: string
}

/** Keep a sign-in on its way to the provider (by its state's hash); flows past their expiry go at the same time. */
export async function insertSignInFlow(db: Db, f: SignInFlow & { stateHash: Buffer; expiresAt: Date }) {
  await db`delete from sign_in_flows where expires_at < now()`
  await db`
    insert into sign_in_flows (state_hash, method, code_verifier, nonce, next_path, expires_at)
    values (${f.stateHash}, ${f.method}, ${f.code_verifier}, ${f.nonce}, ${f.next_path}, ${f.expiresAt})`
}

/**
 * Take a flow back for its answer, once: one DELETE … RETURNING, so a replayed or raced callback with the same
 * state finds nothing. Undefined when unknown, expired or of another method.
 */
export async function takeSignInFlow(db: Db, stateHash: Buffer, method: FlowMethod): Promise<SignInFlow | undefined> {
  const [row] = await db<(SignInFlow & { live: boolean })[]>`
    delete from sign_in_flows where state_hash = ${stateHash}
    returning method, code_verifier, nonce, next_path, expires_at > now() as live`
  return row && row.live && row.method === method ? row : undefined
}

/** The user a provider's subject signs in as, if it signed in before. */
export async function findIdentityUser(db: Db, provider: string, subject: string): Promise<number | undefined> {
  const [row] = await db<{ user_id: number }[]>`
    select user_id from external_identities where provider = ${provider} and subject = ${subject}`
  return row?.user_id
}

export async function insertIdentity(db: Db, provider: string, subject: string, userId: number) {
  await db`
    insert into external_identities (provider, subject, user_id) values (${provider}, ${subject}, ${userId})
    on conflict (provider, subject) do nothing`
}

/** The ids of the organization's groups with these names (names not in Sightline are simply absent). */
export async function groupIdsByName(db: Db, orgId: number, names: string[]): Promise<Map<string, number>> {
  if (!names.length) return new Map()
  const rows = await db<{ id: number; name: string }[]>`select id, name from groups where org_id = ${orgId} and name = any(${names}::text[])`
  return new Map(rows.map((r) => [r.name, r.id]))
}

/** The first organization's id and the user with this e-mail in it (the command line has no organization to ask). */
export async function findUserForLink(db: Db, email: string): Promise<{ orgId: number; userId: number; name: string; disabled: boolean } | undefined> {
  const [row] = await db<{ org_id: number; id: number; name: string; disabled: boolean }[]>`
    select u.org_id, u.id, u.name, u.disabled_at is not null as disabled from users u
    where u.email = ${email} and u.org_id = (select id from organizations order by id limit 1)`
  return row && { orgId: row.org_id, userId: row.id, name: row.name, disabled: row.disabled }
}
