import { storedApiKey, MIN_PASSWORD_LENGTH, hashPassword, openSession, generateApiKey } from '../credentials/index.ts'
import type { Deps } from '../deps.ts'
import { recordEvent } from '../events/index.ts'
import { checkUserLink, redeemUserLink } from './links.ts'
import { deleteUserSessions, deleteUserTokens, findUserById, replaceApiKey, setPasswordFromLink, type UserTokenPurpose as AnyPurpose } from './store.ts'

/** The links that set a password (an email verification link sets none: src/users/verify-email.ts). */
export type UserTokenPurpose = Exclude<AnyPurpose, 'verify' | 'sign_in'>

/**
 * Accepting an invitation or a password reset (reference §1.3): the link's page asks for a password; only the form
 * that sets it uses the link up, so opening the link (or a mail client previewing it) spends nothing.
 */

export const linkPageTexts = {
  inviteTitle: 'Welcome! Set your password',
  resetTitle: 'Reset your password',
  inviteIntro: (name: string) => `Hi ${name}, choose a password to finish setting up your account.`,
  resetIntro: (name: string) => `Hi ${name}, choose a new password for your account.`,
  passwordHint: `At least ${MIN_PASSWORD_LENGTH} characters.`,
  submit: 'Set Password',
  invalidTitle: 'This link does not work',
  invalid: {
    invite: 'Your invite link is invalid, has expired or was already used. Please ask for a new one.',
    reset: 'Your password reset link is invalid, has expired or was already used. Please ask for a new one.',
  } satisfies Record<UserTokenPurpose, string>,
  forgotLink: 'Request a new password reset link',
}

/** Someone the link lets set a password: an existing, enabled user of this organization. */
export interface LinkHolder { userId: number; name: string }

/** Who a link is for, when it still works; undefined for a bad, used, expired or other-purpose link. Spends nothing. */
export async function linkHolder(deps: Deps, orgId: number, purpose: UserTokenPurpose, token: string): Promise<LinkHolder | undefined> {
  const userId = await checkUserLink(deps.sql, deps, purpose, token)
  if (userId === undefined) return undefined
  const user = await findUserById(deps.sql, orgId, userId)
  if (!user || user.disabled_at) return undefined
  return { userId, name: user.name }
}

export type AcceptResult = { ok: true; token: string } | { ok: false; reason: 'invalid' }

/**
 * Set the password through the link, using the link up in the same transaction (one statement: two submissions of
 * one link cannot both win). Every other session of the user ends and their other unused links stop working, so a
 * reset locks out whoever knew the old password. An invitee gets their API key now. Returns a new session's token.
 */
export async function acceptUserLink(
  deps: Deps, orgId: number, purpose: UserTokenPurpose, token: string, password: string, meta: { userAgent?: string; ip?: string },
): Promise<AcceptResult> {
  // the hash is slow: make it before taking the link, so the transaction stays short
  const passwordHash = await hashPassword(password)
  const userId = await deps.sql.begin(async (tx) => {
    const id = await redeemUserLink(tx, deps, purpose, token)
    if (id === undefined) return undefined
    const user = await findUserById(tx, orgId, id)
    if (!user || user.disabled_at) return undefined
    await setPasswordFromLink(tx, id, passwordHash)
    if (!user.api_key_sealed) await replaceApiKey(tx, orgId, id, storedApiKey(deps.secretKey, generateApiKey()))
    await deleteUserSessions(tx, id, null)
    await deleteUserTokens(tx, id)
    await recordEvent(tx, { orgId, userId: id, action: purpose === 'invite' ? 'accept_invitation' : 'reset_password_by_link',
      objectType: 'user', objectId: id })
    return id
  })
  // a refused link rolled back nothing worth keeping; the caller shows the invalid-link page
  if (userId === undefined) return { ok: false, reason: 'invalid' }
  await deps.bus.invalidate('user', userId)
  return { ok: true, token: await openSession(deps, userId, false, meta) }
}
