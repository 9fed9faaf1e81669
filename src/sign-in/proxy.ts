import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose'
import type { Deps } from '../deps.ts'
import { perDatabase } from '../db/index.ts'
import { openSession } from '../credentials/index.ts'
import { recordEvent } from '../events/index.ts'
import type { OrgContext } from '../settings/index.ts'
import { providerAddressProblem } from '../settings/index.ts'
import { emailOf, externalUser, type ExternalPerson } from './external-users.ts'
import { recordRefusal } from './refusals.ts'

/**
 * Sign-in by an access proxy in front of Sightline, as the established tool offers it: the user's e-mail in a header
 * (SIGHTLINE_REMOTE_USER_HEADER), believed only from SIGHTLINE_TRUSTED_PROXIES; or a JWT the proxy signs (the
 * `auth_jwt_*` settings), believed from anywhere once its signature (against the proxy's published keys), issuer,
 * audience and expiry check out (jose, the library openid-client uses). Either opens a session, so the checks run
 * once per browser rather than on every request. Refusals are recorded in the audit log, at most once a minute per
 * address and reason, so a flood of forged headers cannot flood the log.
 */

export interface ProxyRequest {
  /** Whether the connection comes from one of SIGHTLINE_TRUSTED_PROXIES (the socket's address, not a header's). */
  fromTrustedProxy: boolean
  header(name: string): string | undefined
  cookie(name: string): string | undefined
  userAgent?: string
  ip?: string
}

const keySets = new Map<string, JWTVerifyGetKey>()
function keysAt(url: string, timeoutMs: number): JWTVerifyGetKey {
  let keys = keySets.get(url)
  if (!keys) keySets.set(url, (keys = createRemoteJWKSet(new URL(url), { timeoutDuration: timeoutMs })))
  return keys
}

const lastRefusalOf = perDatabase(() => new Map<string, number>())
const REFUSAL_QUIET_MS = 60_000
const MAX_REMEMBERED = 10_000

async function refused(deps: Deps, org: OrgContext, method: string, reason: string, req: ProxyRequest, detail?: string) {
  const key = `${method}:${reason}:${req.ip}`
  const lastRefusal = lastRefusalOf(deps.sql)
  const now = Date.now()
  if (now - (lastRefusal.get(key) ?? 0) < REFUSAL_QUIET_MS) return
  lastRefusal.delete(key)
  lastRefusal.set(key, now)
  if (lastRefusal.size > MAX_REMEMBERED) lastRefusal.delete(lastRefusal.keys().next().value as string)
  await recordRefusal(deps.sql, org.id, { method, reason, ip: req.ip, userAgent: req.userAgent, properties: { detail } })
}

/** A session for the user the proxy names, or undefined (nothing named, not believed, or refused). */
export async function proxySignIn(deps: Deps, org: OrgContext, req: ProxyRequest): Promise<string | undefined> {
  const header = deps.config.remoteUserHeader
  const remoteUser = header ? req.header(header)?.trim() : undefined
  if (remoteUser) {
    if (!req.fromTrustedProxy) {
      await refused(deps, org, 'remote_user', 'untrusted_proxy', req)
    } else {
      const email = emailOf(remoteUser)
      if (!email) return void await refused(deps, org, 'remote_user', 'missing_email', req)
      return signInAs(deps, org, 'remote_user', { provider: 'remote_user', subject: email, email, emailVerified: true }, req)
    }
  }
  const s = org.settings
  if (!s.auth_jwt_login_enabled || !s.auth_jwt_auth_public_certs_url || providerAddressProblem(s.auth_jwt_auth_public_certs_url)) return undefined
  const token = (s.auth_jwt_auth_header_name && req.header(s.auth_jwt_auth_header_name)) ||
    (s.auth_jwt_auth_cookie_name && req.cookie(s.auth_jwt_auth_cookie_name)) || undefined
  if (!token) return undefined
  let claims: Record<string, unknown>
  try {
    ({ payload: claims } = await jwtVerify(token.replace(/^Bearer\s+/i, ''), keysAt(s.auth_jwt_auth_public_certs_url, deps.config.identityProviderTimeoutMs), {
      issuer: s.auth_jwt_auth_issuer, audience: s.auth_jwt_auth_audience,
    }))
  } catch (error) {
    const reason = error instanceof errors.JWTExpired ? 'token_expired'
      : error instanceof errors.JWTClaimValidationFailed ? `token_${error.claim}_mismatch` : 'token_invalid'
    await refused(deps, org, 'jwt', reason, req, error instanceof Error ? error.message.slice(0, 200) : undefined)
    return undefined
  }
  const email = emailOf(claims.email)
  if (!email || typeof claims.sub !== 'string') return void await refused(deps, org, 'jwt', 'missing_email', req)
  return signInAs(deps, org, 'jwt', { provider: s.auth_jwt_auth_issuer, subject: claims.sub, email, emailVerified: true,
    name: typeof claims.name === 'string' ? claims.name : undefined }, req)
}

async function signInAs(deps: Deps, org: OrgContext, method: string, person: ExternalPerson, req: ProxyRequest) {
  const outcome = await externalUser(deps, org.id, method, person)
  if (!outcome.ok) return void await refused(deps, org, method, outcome.reason, req)
  const token = await openSession(deps, outcome.userId, false, req)
  await recordEvent(deps.sql, { orgId: org.id, userId: outcome.userId, action: 'login', objectType: 'redash', objectId: null,
    properties: { method, created: outcome.created || undefined, user_agent: req.userAgent, ip: req.ip } })
  return token
}
