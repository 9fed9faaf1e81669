import type { Deps } from '../deps.ts'
import { hmac, randomToken, safeEqual, sha256 } from '../credentials/index.ts'
import type { Db } from '../db/index.ts'
import { findUsableUserToken, insertUserToken, useUserToken, type UserTokenPurpose } from './store.ts'

/** How long a link works: an invitation or an email verification a week (as the established tool), a reset a day. */
export const LINK_LIFETIME_MS: Record<UserTokenPurpose, number> = {
  invite: 7 * 86_400_000, reset: 86_400_000, verify: 7 * 86_400_000,
  // the break-glass link printed on the server: enough to paste it into a browser, too short to linger in a terminal's history
  sign_in: 15 * 60_000,
}

const PATHS: Record<UserTokenPurpose, string> = { invite: 'invite', reset: 'reset', verify: 'verify', sign_in: 'sign-in-link' }

/** The signature binds the random part to its purpose: an invitation's token is never a reset token. */
const signature = (secretKey: string, purpose: UserTokenPurpose, random: string) => hmac(secretKey, `user-link:${purpose}:${random}`)

/**
 * A new single-use link for the user: `<base>/invite/<token>`, `<base>/reset/<token>` or `<base>/verify/<token>`.
 * The token is random and signed with the secret key; only its sha-256 is stored, with its user, purpose and expiry,
 * so the database alone cannot make a working link and a used, replaced or expired one opens nothing.
 */
export async function issueUserLink(db: Db, deps: Pick<Deps, 'secretKey'>, o: { userId: number; purpose: UserTokenPurpose; base: string; now?: number }) {
  const random = randomToken()
  const token = `${random}.${signature(deps.secretKey, o.purpose, random)}`
  const expiresAt = new Date((o.now ?? Date.now()) + LINK_LIFETIME_MS[o.purpose])
  await insertUserToken(db, { tokenHash: sha256(token), userId: o.userId, purpose: o.purpose, expiresAt })
  return `${o.base.replace(/\/+$/, '')}/${PATHS[o.purpose]}/${token}`
}

/**
 * The user a link's token names, using it up; undefined for a forged, unknown, expired, already used or
 * other-purpose token. For the pages that accept invitations and resets.
 */
export async function redeemUserLink(db: Db, deps: Pick<Deps, 'secretKey'>, purpose: UserTokenPurpose, token: string): Promise<number | undefined> {
  if (!signedFor(deps, purpose, token)) return undefined
  return useUserToken(db, sha256(token), purpose)
}

/** The user a link's token names, without using it up: a GET (or a mail client's link preview) spends nothing. */
export async function checkUserLink(db: Db, deps: Pick<Deps, 'secretKey'>, purpose: UserTokenPurpose, token: string): Promise<number | undefined> {
  if (!signedFor(deps, purpose, token)) return undefined
  return findUsableUserToken(db, sha256(token), purpose)
}

function signedFor(deps: Pick<Deps, 'secretKey'>, purpose: UserTokenPurpose, token: string): boolean {
  if (token.length > 200) return false
  const [random, signed, ...rest] = token.split('.')
  return Boolean(random && signed && !rest.length && safeEqual(signed, signature(deps.secretKey, purpose, random)))
}
