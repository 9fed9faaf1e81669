import { claimSignInAttempt, sha256 } from '../credentials/index.ts'
import type { Deps } from '../deps.ts'
import { queueMail, passwordResetMail } from '../mail/index.ts'
import { log } from '../log.ts'
import { publicOrigin } from '../settings/index.ts'
import { issueUserLink } from './links.ts'
import { findUserByEmail } from './store.ts'

/**
 * "Forgot password" (reference §1.3 `/forgot`): the answer is the same whether or not the address has an account, so
 * the page cannot be used to find out who has one. Requests are counted in the sign-in attempts table (so every
 * process sees them, and they age out with sign-in attempts) under a purpose of their own.
 */

export const forgotTexts = {
  linkOnLogin: 'Forgot password?',
  title: 'Forgot password',
  intro: 'Enter your email address and we will send you a link to reset your password.',
  email: 'Email',
  submit: 'Send Reset Link',
  sent: 'If an account exists for that address, we sent it a link to reset your password. Check your inbox.',
  backToLogin: 'Back to login',
  throttled: 'Too many password reset requests. Please try again later.',
  disabled: 'Password login is not enabled for your organization.',
}

/**
 * Per address (a network hammering the page) and per email (someone flooding one inbox), within the sign-in
 * window (15 minutes by default). Counted for unknown addresses too, so the limits tell nothing either.
 */
export const FORGOT_LIMITS = { perAddress: 10, perEmail: 3 }

export type ForgotVerdict = { ok: true } | { ok: false; retryAfterSeconds: number }

/** Count this request against its address and email; refused when either has had its share in the window. */
export async function claimForgotRequest(deps: Deps, email: string, ip: string | undefined): Promise<ForgotVerdict> {
  const limits = deps.config.signInLimits
  const now = limits.now()
  const { id } = await claimSignInAttempt(deps.sql, {
    account: sha256(normalEmail(email)), address: ip ?? 'unknown', purpose: 'forgot',
    at: new Date(now), since: new Date(now - limits.windowMs),
  }, (counts) => counts.addressFailures < FORGOT_LIMITS.perAddress && counts.accountFailures < FORGOT_LIMITS.perEmail)
  if (id === undefined) return { ok: false, retryAfterSeconds: Math.ceil(limits.windowMs / 1000) }
  return { ok: true }
}

/**
 * A one-day reset link for the organization's active user with this email, built on the public origin and mailed to
 * them when mail is configured (queued with the link, in one transaction); null when there is no such user (unknown
 * or disabled) or no public origin: a link made from the request's address would go wherever its `Host` header says.
 * The link must never be shown on the page or logged. The caller has checked that password login is on (the page
 * answers 404 otherwise).
 */
export async function requestPasswordReset(deps: Deps, orgId: number, email: string): Promise<string | null> {
  const address = normalEmail(email)
  if (!address || address.length > 320) return null
  const user = await findUserByEmail(deps.sql, orgId, address)
  if (!user || user.disabled_at) return null
  const origin = await publicOrigin(deps, orgId)
  if (!origin) {
    log.warn('password reset not mailed: Sightline\'s address is not set (SIGHTLINE_BASE_URL or the General settings)', { user: user.id })
    return null
  }
  return deps.sql.begin(async (tx) => {
    const link = await issueUserLink(tx, deps, { userId: user.id, purpose: 'reset', base: origin })
    if (deps.config.mail) await queueMail(tx, passwordResetMail({ to: user.email, name: user.name, link }))
    return link
  })
}

const normalEmail = (email: string) => email.trim().toLowerCase()
