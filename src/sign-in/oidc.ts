import type { Deps } from '../deps.ts'
import { openSession, openSecret, safeEqual, sha256 } from '../credentials/index.ts'
import { recordEvent } from '../events/index.ts'
import { log } from '../log.ts'
import type { OrgContext } from '../settings/index.ts'
import { oidcLoginEnabled, publicOrigin } from '../settings/index.ts'
import { claimValues, emailOf, externalUser, type ExternalPerson, type Refusal } from './external-users.ts'
import { authorizationUrl, claimsFromCallback, newSecrets, ProviderAnswerRefused, ProviderUnavailable, type Claims, type ProviderClient } from './oidc-client.ts'
import { insertSignInFlow, takeSignInFlow, type FlowMethod } from './store.ts'

export type { FlowMethod }

/** How long a sign-in may stay at the provider (typing a password, a second factor) before its state expires. */
const FLOW_TTL_MS = 10 * 60_000

export const oidcTexts = {
  defaultButton: 'Log in with OpenID Connect',
  googleButton: 'Log in with Google',
  off: 'This sign-in method is not enabled.',
  noOrigin: "Sightline's address is not set (SIGHTLINE_BASE_URL or the base URL in the General settings), so the identity provider cannot be told where to send you back.",
  unavailable: (detail: string) => `The identity provider cannot be reached right now (${detail}). Please try again later.`,
  refused: (detail: string) => `The identity provider's answer was refused (${detail}). Please try signing in again.`,
  expired: 'This sign-in has expired or was already used. Please start again from the login page.',
  providerError: (error: string) => `The identity provider did not sign you in (${error}).`,
  refusal: {
    missing_email: 'Your identity provider did not send an e-mail address, which Sightline needs. Ask your administrator to release the email claim to Sightline.',
    email_not_verified: 'A Sightline account with this e-mail already exists, and your identity provider did not confirm that the address is yours. Sign in another way, or ask your administrator.',
    disabled: 'Your Sightline account is disabled. Ask an administrator.',
    domain_not_allowed: "Your Google account's domain is not one of this organization's domains, and you have no Sightline account yet. Ask an administrator to invite you.",
    not_provisioned: 'Sightline could not find your account. Please try again.',
  } satisfies Record<Refusal, string>,
}

export const CALLBACK_PATHS: Record<FlowMethod, string> = { oidc: '/oidc/callback', google: '/oauth/google_callback' }

/** The provider a method signs in with, when it is on: the organization's OpenID Connect provider, or Google. */
export function providerFor(deps: Deps, org: OrgContext, method: FlowMethod): ProviderClient | undefined {
  if (method === 'google') {
    const google = deps.config.google
    return google && { issuerUrl: google.issuerUrl, clientId: google.clientId, clientSecret: google.clientSecret }
  }
  const s = org.settings
  if (!oidcLoginEnabled(s)) return undefined
  return { issuerUrl: s.auth_oidc_issuer_url, clientId: s.auth_oidc_client_id, clientSecret: openSecret(deps.secretKey, s.auth_oidc_client_secret) }
}

/** Where the provider sends the browser back: always on the public origin, never on a request's Host header. */
async function redirectUriFor(deps: Deps, org: OrgContext, method: FlowMethod): Promise<string | undefined> {
  const origin = await publicOrigin(deps, org.id)
  return origin ? origin + CALLBACK_PATHS[method] : undefined
}

export type Started = { ok: true; url: string; state: string } | { ok: false; status: number; message: string }

/**
 * Start a sign-in: keep its state (by hash), PKCE verifier, nonce and where to go after, and return the provider's
 * address to send the browser to, and the state to bind to the browser (a cookie), so that a callback with someone
 * else's code and state is refused.
 */
export async function startSignIn(deps: Deps, org: OrgContext, method: FlowMethod, nextPath: string, meta: Meta): Promise<Started> {
  const provider = providerFor(deps, org, method)
  if (!provider) return { ok: false, status: 404, message: oidcTexts.off }
  const redirectUri = await redirectUriFor(deps, org, method)
  if (!redirectUri) return { ok: false, status: 503, message: oidcTexts.noOrigin }
  const secrets = newSecrets()
  let url: URL
  try {
    url = await authorizationUrl(provider, deps.config.identityProviderTimeoutMs, { redirectUri, ...secrets })
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error
    await failed(deps, org, method, 'provider_unavailable', meta, { detail: error.message })
    return { ok: false, status: 503, message: oidcTexts.unavailable(error.message) }
  }
  await insertSignInFlow(deps.sql, {
    stateHash: sha256(secrets.state), method, code_verifier: secrets.codeVerifier, nonce: secrets.nonce, next_path: nextPath,
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
  })
  return { ok: true, url: url.href, state: secrets.state }
}

export interface Meta {
  userAgent?: string
  ip?: string
}

export type Finished =
  | { ok: true; token: string; userId: number; next: string }
  | { ok: false; status: number; message: string }

/**
 * Finish a sign-in the provider sent back: the state must be the one bound to this browser and still waiting (each
 * works once), the code is exchanged with the PKCE verifier, the ID token verified (signature, issuer, audience,
 * expiry, nonce), then the person signs in as their user (src/sign-in/external-users.ts). Every outcome is recorded
 * in the audit log with its method and, for a failure, the reason.
 */
export async function finishSignIn(
  deps: Deps, org: OrgContext, method: FlowMethod, query: string, boundState: string | undefined, meta: Meta,
): Promise<Finished> {
  const provider = providerFor(deps, org, method)
  if (!provider) return { ok: false, status: 404, message: oidcTexts.off }
  const params = new URLSearchParams(query)
  const state = params.get('state') ?? ''
  if (!state || !boundState || !safeEqual(state, boundState)) {
    await failed(deps, org, method, 'state_mismatch', meta)
    return { ok: false, status: 400, message: oidcTexts.expired }
  }
  const flow = await takeSignInFlow(deps.sql, sha256(state), method)
  if (!flow) {
    await failed(deps, org, method, 'state_unknown', meta)
    return { ok: false, status: 400, message: oidcTexts.expired }
  }
  const providerError = params.get('error')
  if (providerError) {
    const detail = `${providerError.slice(0, 100)}${params.get('error_description') ? `: ${params.get('error_description')!.slice(0, 200)}` : ''}`
    await failed(deps, org, method, 'provider_error', meta, { detail })
    return { ok: false, status: 403, message: oidcTexts.providerError(detail) }
  }
  const redirectUri = await redirectUriFor(deps, org, method)
  if (!redirectUri) return { ok: false, status: 503, message: oidcTexts.noOrigin }
  let claims: Claims
  try {
    claims = await claimsFromCallback(provider, deps.config.identityProviderTimeoutMs, {
      redirectUri, query, state, nonce: flow.nonce, codeVerifier: flow.code_verifier,
      needed: method === 'google' ? ['email', 'email_verified', 'hd'] : ['email', 'email_verified', org.settings.auth_oidc_groups_claim],
    })
  } catch (error) {
    if (error instanceof ProviderUnavailable) {
      await failed(deps, org, method, 'provider_unavailable', meta, { detail: error.message })
      return { ok: false, status: 503, message: oidcTexts.unavailable(error.message) }
    }
    if (error instanceof ProviderAnswerRefused) {
      log.warn('identity provider answer refused', { method, error: error.message })
      await failed(deps, org, method, 'token_refused', meta, { detail: error.message })
      return { ok: false, status: 403, message: oidcTexts.refused(error.message) }
    }
    throw error
  }
  const person = personOf(provider.issuerUrl, claims)
  const outcome = await externalUser(deps, org.id, method, person, method === 'google'
    ? { mayCreate: (email) => googleDomainAllowed(org.settings.auth_google_apps_domains, email, claims.hd) }
    : { groups: { values: claimValues(claims[org.settings.auth_oidc_groups_claim]), mappings: org.settings.auth_oidc_group_mappings } })
  if (!outcome.ok) {
    await failed(deps, org, method, outcome.reason, meta, { email: person.email, subject: person.subject })
    return { ok: false, status: 403, message: oidcTexts.refusal[outcome.reason] }
  }
  const token = await openSession(deps, outcome.userId, true, meta)
  await recordEvent(deps.sql, { orgId: org.id, userId: outcome.userId, action: 'login', objectType: 'redash', objectId: null,
    properties: { method, user_agent: meta.userAgent, ip: meta.ip, created: outcome.created || undefined,
      groups_added: outcome.added.length ? outcome.added : undefined, groups_removed: outcome.removed.length ? outcome.removed : undefined } })
  return { ok: true, token, userId: outcome.userId, next: flow.next_path }
}

function personOf(issuer: string, claims: Claims): ExternalPerson {
  const email = emailOf(claims.email)
  const name = typeof claims.name === 'string' ? claims.name : undefined
  // some providers send "true" as a string; anything but a plain yes is a no
  const verified = claims.email_verified === true || claims.email_verified === 'true'
  return { provider: issuer, subject: claims.sub, email, emailVerified: verified, name }
}

/**
 * Google's rule (as the established tool): a new user may be created only for the organization's listed domains,
 * by the `hd` claim Google sets for Workspace accounts (a consumer account has none, whatever its address says).
 */
export function googleDomainAllowed(domains: string[], _email: string, hd: unknown): boolean {
  return typeof hd === 'string' && domains.map((d) => d.toLowerCase()).includes(hd.toLowerCase())
}

async function failed(deps: Deps, org: OrgContext, method: FlowMethod, reason: string, meta: Meta, extra: Record<string, unknown> = {}) {
  await recordEvent(deps.sql, { orgId: org.id, userId: null, action: 'login_failed', objectType: 'redash', objectId: null,
    properties: { method, reason, ...extra, user_agent: meta.userAgent, ip: meta.ip } })
}
