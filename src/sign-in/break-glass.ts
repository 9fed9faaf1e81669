import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import { openSession } from '../credentials/index.ts'
import { recordEvent } from '../events/index.ts'
import { localOrigin, publicOrigin } from '../settings/index.ts'
import { checkUserLink, issueUserLink, LINK_LIFETIME_MS, redeemUserLink, findUserById } from '../users/index.ts'
import { findUserForLink } from './store.ts'

/**
 * The break-glass way in: `sightline sign-in-link <email>`, run on the server by whoever runs Sightline, prints a
 * link that signs that user in once, within 15 minutes, whatever login methods are on (an identity provider down,
 * password login switched off). Having the server's shell is already having everything, so this opens no new door;
 * every link issued and used is in the audit log.
 */
export const breakGlassTexts = {
  unknown: (email: string) => `There is no user with the e-mail ${email}.`,
  disabled: (email: string) => `The user ${email} is disabled: enable them first.`,
  title: 'One-time sign-in',
  intro: (name: string) => `This link signs you in as ${name}, once. It was printed on the Sightline server by its operator.`,
  submit: 'Sign in',
  invalid: 'This sign-in link is invalid, was already used, or has expired (links work for 15 minutes). Print a new one on the server.',
}

export async function issueSignInLink(deps: { sql: Db; secretKey: string; config: Config }, rawEmail: string): Promise<{ url: string; expiresAt: Date }> {
  const email = rawEmail.trim().toLowerCase()
  const user = await findUserForLink(deps.sql, email)
  if (!user) throw new Error(breakGlassTexts.unknown(email))
  if (user.disabled) throw new Error(breakGlassTexts.disabled(email))
  const base = (await publicOrigin(deps, user.orgId)) ?? localOrigin(deps.config)
  const now = Date.now()
  const url = await issueUserLink(deps.sql, deps, { userId: user.userId, purpose: 'sign_in', base, now })
  const expiresAt = new Date(now + LINK_LIFETIME_MS.sign_in)
  await recordEvent(deps.sql, { orgId: user.orgId, userId: null, action: 'issue_sign_in_link', objectType: 'user', objectId: user.userId,
    properties: { method: 'command_line', expires_at: expiresAt.toISOString() } })
  return { url, expiresAt }
}

/** Who a link would sign in, without using it up (the page a link opens, or a mail client's preview). */
export async function signInLinkHolder(deps: Deps, orgId: number, token: string): Promise<{ name: string } | undefined> {
  const userId = await checkUserLink(deps.sql, deps, 'sign_in', token)
  const user = userId === undefined ? undefined : await findUserById(deps.sql, orgId, userId)
  return user && !user.disabled_at ? { name: user.name } : undefined
}

/** Use a link once and open a session for its user; undefined when it does not (or no longer) work. */
export async function useSignInLink(deps: Deps, orgId: number, token: string, meta: { userAgent?: string; ip?: string }): Promise<string | undefined> {
  const userId = await redeemUserLink(deps.sql, deps, 'sign_in', token)
  const user = userId === undefined ? undefined : await findUserById(deps.sql, orgId, userId)
  if (!user || user.disabled_at) return undefined
  const session = await openSession(deps, user.id, false, meta)
  await recordEvent(deps.sql, { orgId, userId: user.id, action: 'login', objectType: 'redash', objectId: null,
    properties: { method: 'sign_in_link', user_agent: meta.userAgent, ip: meta.ip } })
  return session
}
