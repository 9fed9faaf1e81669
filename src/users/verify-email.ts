import type { Deps } from '../deps.ts'
import type { Db } from '../db/index.ts'
import { BadRequest } from '../errors.ts'
import { recordEvent } from '../events/index.ts'
import { queueMail, verificationMail } from '../mail/index.ts'
import type { Principal } from '../permissions/index.ts'
import { texts } from '../shared/texts.ts'
import { originTexts, publicOrigin } from '../settings/index.ts'
import { issueUserLink, redeemUserLink } from './links.ts'
import { deleteUnusedUserTokens, findUserById, latestUnusedUserTokenAt, setEmailVerified } from './store.ts'

/**
 * Email verification (reference §1.3 `/verify/<token>`, `POST /verification_email/`): a single-use link, valid a
 * week, mailed to the user's address; opening it marks the address verified. Only with mail configured: without a
 * mail server no link could reach the address, so the request is refused and an address change keeps its state.
 * Links are built on the public origin only: until Sightline knows it, none is mailed.
 */

export const verifyTexts = {
  notConfigured: 'The mail server is not configured.',
  sent: texts.home.verificationSent,
  resendTitle: 'Verify your email address',
  verifiedTitle: 'Email address verified',
  verified: (email: string) => `Thank you! Your email address ${email} is verified.`,
  invalidTitle: 'This link does not work',
  invalid: 'Your verification link is invalid, has expired or was already used. Please ask for a new one.',
  backHome: 'Continue to Sightline',
}

/** A new verification link is not made more often than this: a looping client cannot flood the inbox it names. */
export const RESEND_AFTER_MS = 60_000

/**
 * Mail the caller a verification link (`POST /verification_email/`), queued with the link in one transaction; none
 * when the address is already verified or a link went out within the last minute. The answer is the same message
 * whatever happened, as the established tool answers.
 */
export async function requestEmailVerification(deps: Deps, principal: Principal): Promise<{ message: string }> {
  if (!deps.config.mail) throw new BadRequest(verifyTexts.notConfigured)
  const origin = await publicOrigin(deps, principal.orgId)
  if (!origin) throw new BadRequest(originTexts.notSet)
  const user = await findUserById(deps.sql, principal.orgId, principal.id)
  if (user && !user.disabled_at && !user.is_email_verified) {
    await deps.sql.begin(async (tx) => {
      const last = await latestUnusedUserTokenAt(tx, user.id, 'verify')
      if (last && Date.now() - last.getTime() < RESEND_AFTER_MS) return
      await mailVerificationLink(tx, deps, { id: user.id, name: user.name, email: user.email }, origin)
    })
  }
  return { message: verifyTexts.sent }
}

async function mailVerificationLink(db: Db, deps: Pick<Deps, 'secretKey'>, user: { id: number; name: string; email: string }, base: string) {
  const link = await issueUserLink(db, deps, { userId: user.id, purpose: 'verify', base })
  await queueMail(db, verificationMail({ to: user.email, name: user.name, link }))
}

/**
 * The user's address changed (in the caller's transaction): links sent to the old one stop working; with mail
 * configured the new address counts as unverified until its own link, mailed now, is opened (reference §1.6). With
 * no public origin yet, none is mailed: Resend email sends one once an admin has set it.
 */
export async function emailAddressChanged(
  db: Db, deps: Pick<Deps, 'secretKey' | 'config'>, orgId: number, user: { id: number; name: string; email: string },
) {
  await deleteUnusedUserTokens(db, user.id, 'verify')
  if (!deps.config.mail) return
  await setEmailVerified(db, user.id, false)
  const origin = await publicOrigin({ sql: db, config: deps.config }, orgId)
  if (origin) await mailVerificationLink(db, deps, user, origin)
}

/**
 * Open a verification link: the address is verified and the link used up, in one transaction. Undefined for a bad,
 * used, expired or other-purpose link, or one of a disabled user or another organization.
 */
export async function verifyEmail(deps: Deps, orgId: number, token: string): Promise<{ email: string } | undefined> {
  const verified = await deps.sql.begin(async (tx) => {
    const id = await redeemUserLink(tx, deps, 'verify', token)
    if (id === undefined) return undefined
    const user = await findUserById(tx, orgId, id)
    if (!user || user.disabled_at) return undefined
    await setEmailVerified(tx, id, true)
    await recordEvent(tx, { orgId, userId: id, action: 'verify_email', objectType: 'user', objectId: id })
    return { id, email: user.email }
  })
  if (!verified) return undefined
  // signed-in sessions carry the flag (the home page's notice): every process forgets its copy
  await deps.bus.invalidate('user', verified.id)
  return { email: verified.email }
}
