import type { Db } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { deleteSession, findActivePrincipal, findPrincipalByApiKeyHash, findPrincipalBySession, insertSession, touchSession, type PrincipalRow } from './store.ts'
import { hmac, randomToken, sha256 } from './tokens.ts'
import { apiKeyHash } from './api-keys.ts'
import { recordAudit } from '../events/index.ts'
import { profileImageUrl } from '../permissions/index.ts'

/** A browser session without "remember me" lasts 12 hours from its last use; with it, 30 days. */
export const SESSION_TTL_SECONDS = 12 * 3600
export const REMEMBER_TTL_SECONDS = 30 * 24 * 3600

function toPrincipal(row: PrincipalRow, via: Principal['via']): Principal {
  return {
    kind: 'user', id: row.id, orgId: row.org_id, name: row.name, email: row.email,
    profileImageUrl: profileImageUrl(row.email, row.profile_image_url), groupIds: row.group_ids,
    permissions: row.permissions, isEmailVerified: row.is_email_verified, via,
  }
}

/** Open a session for a user who proved who they are (src/sign-in/password.ts, setup); returns its cookie token. */
export async function openSession(
  deps: Deps, userId: number, remember: boolean, meta: { userAgent?: string; ip?: string } = {},
): Promise<string> {
  const token = randomToken()
  await insertSession(deps.sql, {
    tokenHash: sha256(token), userId, remember, ttlSeconds: remember ? REMEMBER_TTL_SECONDS : SESSION_TTL_SECONDS,
    userAgent: meta.userAgent?.slice(0, 500), ip: meta.ip,
  })
  return token
}

export async function signOut(deps: Deps, token: string) {
  const hash = sha256(token)
  const principal = await principalForSession(deps, token)
  await deleteSession(deps.sql, hash)
  if (principal) await recordAudit(deps.sql, principal, { action: 'logout', objectType: 'redash', objectId: null })
  await deps.bus.invalidate('session', hash.toString('hex'))
}

/** The user behind a session cookie, from cache when recently seen (keyed by the token: no hashing on a hit). */
export async function principalForSession(deps: Deps, token: string): Promise<Principal | undefined> {
  const key = `s:${token}`
  const cached = deps.principals.get(key)
  if (cached) return cached
  const hash = sha256(token)
  const row = await findPrincipalBySession(deps.sql, hash)
  if (!row) return undefined
  const principal = { ...toPrincipal(row, 'session'), sessionHash: hash.toString('hex') }
  deps.principals.set(key, principal)
  // Each cache refresh (at most every 30 s per process) slides the session's expiry.
  await touchSession(deps.sql, hash, row.remember ? REMEMBER_TTL_SECONDS : SESSION_TTL_SECONDS)
  return principal
}

/** The user behind an API key, found by the key's hash; cached by the key itself, which never leaves the process. */
export async function principalForApiKey(deps: Deps, apiKey: string): Promise<Principal | undefined> {
  const key = `k:${apiKey}`
  const cached = deps.principals.get(key)
  if (cached) return cached
  const row = await findPrincipalByApiKeyHash(deps.sql, apiKeyHash(apiKey))
  if (!row) return undefined
  const principal = toPrincipal(row, 'api_key')
  deps.principals.set(key, principal)
  return principal
}

/**
 * The rights a dashboard's share token carries: those of the user who turned sharing on, as they are now. The token's
 * cache keeps them until a change to that user's groups or state evicts them (src/dashboards/sharing.ts), so a
 * removal from a group or a disabling counts from the next request. Undefined when that user is disabled or gone:
 * the token then opens nothing.
 */
export async function principalForShareKey(deps: Deps, creatorId: number | null): Promise<Principal | undefined> {
  if (creatorId === null) return undefined
  const row = await findActivePrincipal(deps.sql, creatorId)
  return row && toPrincipal(row, 'share_key')
}

/**
 * A user's rights as they are now, for work a worker does in their name (a Query Results run reading other queries):
 * undefined when the user is disabled or gone.
 */
export async function principalToRunAs(db: Db, userId: number): Promise<Principal | undefined> {
  const row = await findActivePrincipal(db, userId)
  return row && toPrincipal(row, 'run_as')
}

/** The CSRF token for a session: bound to it, so a token planted by another site or session is worthless. */
export function csrfTokenFor(deps: Deps, sessionToken: string): string {
  let token = deps.csrfTokens.get(sessionToken)
  if (!token) {
    token = hmac(deps.secretKey, `csrf:${sessionToken}`)
    deps.csrfTokens.set(sessionToken, token) // every request of a signed-in browser needs it
  }
  return token
}
