import * as oidc from 'openid-client'
import { providerAddressProblem } from '../settings/index.ts'

/** The client Sightline is at one provider: where the provider is and the credentials it gave. */
export interface ProviderClient {
  issuerUrl: string
  clientId: string
  clientSecret: string
}

/** The provider could not be asked (down, too slow, or answered something that is not OpenID Connect). */
export class ProviderUnavailable extends Error {}

/** The provider's answer was refused: a bad or foreign token, an error it returned, a check that failed. */
export class ProviderAnswerRefused extends Error {}

/** Claims of the signed-in person: the ID token's, completed by the userinfo endpoint's. */
export type Claims = Record<string, unknown> & { sub: string }

/** Discovery documents are kept this long per process, so a sign-in costs no round trip to read them. */
const DISCOVERY_TTL_MS = 10 * 60_000
const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>()

function cacheKey(p: ProviderClient) {
  return JSON.stringify([p.issuerUrl, p.clientId, p.clientSecret])
}

/** The provider's configuration from its discovery document, cached; ProviderUnavailable when it cannot be read. */
async function configurationOf(p: ProviderClient, timeoutMs: number): Promise<oidc.Configuration> {
  const key = cacheKey(p)
  const hit = discovered.get(key)
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config
  const problem = providerAddressProblem(p.issuerUrl)
  if (problem) throw new ProviderUnavailable(`The issuer address ${problem}.`)
  const insecure = new URL(p.issuerUrl).protocol === 'http:'
  const config = oidc.discovery(new URL(p.issuerUrl), p.clientId, { client_secret: p.clientSecret }, oidc.ClientSecretPost(p.clientSecret), {
    timeout: timeoutMs / 1000,
    execute: insecure ? [oidc.allowInsecureRequests] : [],
  })
  discovered.set(key, { at: Date.now(), config })
  try {
    return await config
  } catch (error) {
    // a failed discovery is not kept: the next sign-in asks again
    if (discovered.get(key)?.config === config) discovered.delete(key)
    throw new ProviderUnavailable(describe(error))
  }
}

/** Forget what was discovered about a provider (its settings changed, or it rotated its keys and a check failed). */
export function forgetProvider(p: ProviderClient) {
  discovered.delete(cacheKey(p))
}

export interface AuthorizationRequest {
  redirectUri: string
  state: string
  nonce: string
  codeVerifier: string
  /** Extra parameters (Google's `hd`, `prompt`). */
  extra?: Record<string, string>
}

export const newSecrets = () => ({ state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() })

/** The provider's authorization address for a new sign-in: code flow, PKCE (S256), state and nonce. */
export async function authorizationUrl(p: ProviderClient, timeoutMs: number, r: AuthorizationRequest): Promise<URL> {
  const config = await configurationOf(p, timeoutMs)
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: r.redirectUri, scope: 'openid email profile', response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(r.codeVerifier), code_challenge_method: 'S256',
    state: r.state, nonce: r.nonce, ...r.extra,
  })
}

export interface CallbackCheck {
  /** The redirect URI the sign-in was started with, and the query the provider sent back to it. */
  redirectUri: string
  query: string
  state: string
  nonce: string
  codeVerifier: string
  /** Claims the sign-in needs: the userinfo endpoint is asked only when the ID token lacks one of them. */
  needed: string[]
}

/**
 * Exchange the code the provider sent back for tokens and return the person's claims. openid-client checks the
 * state, the issuer, the ID token's signature against the provider's published keys, its audience (this client),
 * expiry and nonce. When the ID token lacks a needed claim, the userinfo endpoint completes them (many providers put
 * e-mail and groups only there); the ID token's claims win.
 */
export async function claimsFromCallback(p: ProviderClient, timeoutMs: number, check: CallbackCheck): Promise<Claims> {
  const config = await configurationOf(p, timeoutMs)
  const currentUrl = new URL(check.redirectUri)
  currentUrl.search = check.query
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>
  try {
    tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: check.codeVerifier, expectedState: check.state, expectedNonce: check.nonce, idTokenExpected: true,
    })
  } catch (error) {
    throw unreachable(error) ? new ProviderUnavailable(describe(error)) : new ProviderAnswerRefused(describe(error))
  }
  const idClaims = tokens.claims()
  if (!idClaims) throw new ProviderAnswerRefused('The provider sent no ID token.')
  let userinfo: Record<string, unknown> = {}
  const missing = check.needed.some((claim) => idClaims[claim] === undefined)
  if (missing && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    try {
      userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)
    } catch (error) {
      throw unreachable(error) ? new ProviderUnavailable(describe(error)) : new ProviderAnswerRefused(describe(error))
    }
  }
  return { ...userinfo, ...idClaims } as Claims
}

/** A failure to reach the provider (refused, reset, timed out), as opposed to an answer that was refused. */
function unreachable(error: unknown): boolean {
  const e = error as { name?: string; cause?: unknown; code?: string }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return true
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return true
  if (e?.cause && e.cause !== error) return unreachable(e.cause)
  return e?.code === 'OAUTH_RESPONSE_IS_NOT_JSON' || e?.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM'
}

/** A short, readable reason (the library's message, and its cause's when that says more). */
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { name?: string; message?: string; code?: string }; error?: string; error_description?: string }
  if ([e?.name, e?.cause?.name].some((n) => n === 'TimeoutError' || n === 'AbortError')) return 'the provider did not answer in time'
  if (e?.error) return `${e.error}${e.error_description ? `: ${e.error_description}` : ''}`
  const cause = e?.cause?.code ?? e?.cause?.message
  const message = e?.message ?? String(error)
  return (cause && !message.includes(cause) ? `${message} (${cause})` : message).slice(0, 300)
}
