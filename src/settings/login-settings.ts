import { BadRequest } from '../errors.ts'
import { SECRET_MASK } from '../shared/configuration-schema.ts'
import type { OrgSettings } from './defaults.ts'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Why an identity provider's address cannot be used, or undefined when it can: https, or plain http on this machine's
 * loopback (a provider run beside Sightline, or in tests). Anything else on plain http would carry the client secret,
 * codes and tokens in the clear.
 */
export function providerAddressProblem(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'is not an address'
  }
  if (parsed.username || parsed.password) return 'must not hold a user name or password'
  if (parsed.protocol === 'https:') return undefined
  if (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname)) return undefined
  return 'must be an https:// address'
}

/** The write-only settings: never sent back, only whether they are set (as the mask). */
const WRITE_ONLY = ['auth_oidc_client_secret'] as const satisfies readonly (keyof OrgSettings)[]

/** The settings as an admin may read them: write-only values masked. */
export function maskedSettings(settings: OrgSettings): OrgSettings {
  const out = { ...settings }
  for (const key of WRITE_ONLY) if (out[key]) out[key] = SECRET_MASK
  return out
}

/** A change as saved: a write-only value sent back as its mask means "keep what is stored". */
export function dropMaskedValues(change: Partial<OrgSettings>) {
  for (const key of WRITE_ONLY) if (change[key] === SECRET_MASK) delete change[key]
}

/**
 * The login settings of a change, checked against what they will be once saved: addresses an identity provider can
 * be reached at, and OpenID Connect switched on only with an issuer and a client id. 400 with what is wrong.
 */
export function checkLoginSettings(change: Partial<OrgSettings>, after: OrgSettings) {
  for (const key of ['auth_oidc_issuer_url', 'auth_jwt_auth_public_certs_url'] as const) {
    const value = change[key]
    const problem = value ? providerAddressProblem(value) : undefined
    if (problem) throw new BadRequest(`${key}: the address ${problem}.`)
  }
  if (after.auth_oidc_enabled && (!after.auth_oidc_issuer_url || !after.auth_oidc_client_id)) {
    throw new BadRequest('OpenID Connect sign-in needs an issuer URL and a client id.')
  }
  if (after.auth_jwt_login_enabled) {
    if (!after.auth_jwt_auth_public_certs_url || !after.auth_jwt_auth_issuer || !after.auth_jwt_auth_audience) {
      throw new BadRequest('JWT sign-in needs an issuer, an audience and the address of the public keys.')
    }
    if (!after.auth_jwt_auth_header_name && !after.auth_jwt_auth_cookie_name) {
      throw new BadRequest('JWT sign-in needs the header or the cookie the access proxy puts the token in.')
    }
  }
}
