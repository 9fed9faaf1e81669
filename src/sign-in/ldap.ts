import type { Deps } from '../deps.ts'
import { ServiceUnavailable } from '../errors.ts'
import { recordEvent } from '../events/index.ts'
import { listGroups } from '../groups/index.ts'
import { log } from '../log.ts'
import { currentOrg } from '../orgs/index.ts'
import { findUserByEmail, insertUser, markExternallySignedIn } from '../users/index.ts'
import { checkDirectoryCredentials, DirectoryUnavailable, type DirectoryPerson } from './directory.ts'
import { openSession, claimSignInAttempt, forgetSignInFailures, signInVerdict, type Verdict, sha256 } from '../credentials/index.ts'
import { pauseRefusal, refused, type SignInResult } from './password.ts'

export const ldapTexts = {
  incorrect: 'Incorrect credentials.',
  unavailable: 'LDAP sign-in is unavailable right now: the directory cannot be reached. Please try again later.',
  noDefaultGroup: "The organization has no 'default' group.",
}

type LdapSignInInput = { username: string; password: string; userAgent?: string; ip?: string }

/**
 * Sign in through the directory (reference §1.5): counted and limited like a password sign-in (the same attempts
 * table, per account and per address), so the directory cannot be used to guess passwords faster than the login
 * form. A person the directory vouches for is matched to a user by e-mail, or created in the default group.
 * Throws ServiceUnavailable when the directory cannot be asked.
 */
export async function ldapSignIn(deps: Deps, input: LdapSignInInput): Promise<SignInResult> {
  const settings = deps.config.ldap
  const org = await currentOrg(deps)
  if (!settings || !org) return { ok: false, message: ldapTexts.incorrect }
  const limits = deps.config.signInLimits
  const now = limits.now()
  const address = input.ip ?? 'unknown'
  const account = sha256(input.username.trim().toLowerCase())
  let verdict: Verdict = { go: true }
  const { id } = await claimSignInAttempt(deps.sql, { account, address, at: new Date(now), since: new Date(now - limits.windowMs) },
    (counts) => (verdict = signInVerdict(counts, limits, now)).go)
  if (!verdict.go || id === undefined) {
    // held back like the login form's refusals, so a script guessing in a loop gets an answer a second, not thousands
    await pauseRefusal(limits.refusalPauseMs)
    return refused(verdict)
  }
  const failed = async (reason: string): Promise<SignInResult> => {
    await recordEvent(deps.sql, { orgId: org.id, userId: null, action: 'login_failed', objectType: 'redash', objectId: null,
      properties: { method: 'ldap', reason, user_agent: input.userAgent, ip: input.ip } })
    return { ok: false, message: ldapTexts.incorrect }
  }
  let person: DirectoryPerson | undefined
  try {
    person = await checkDirectoryCredentials(settings, input.username.trim(), input.password)
  } catch (error) {
    if (!(error instanceof DirectoryUnavailable)) throw error
    // the attempt stays counted: a guesser gains nothing by keeping the directory busy
    log.warn('LDAP directory unavailable', { error: error.message })
    throw new ServiceUnavailable(ldapTexts.unavailable, 30)
  }
  if (!person) return failed('credentials')
  const userId = await userFor(deps, org.id, person)
  if (userId === undefined) return failed('disabled')
  await forgetSignInFailures(deps.sql, { id, account, address })
  const token = await openSession(deps, userId, true, input)
  await recordEvent(deps.sql, { orgId: org.id, userId, action: 'login', objectType: 'redash', objectId: null,
    properties: { method: 'ldap', user_agent: input.userAgent, ip: input.ip } })
  return { ok: true, token, remember: true, userId }
}

/** The user the directory's person signs in as (created on first sign-in); undefined when that user is disabled. */
async function userFor(deps: Deps, orgId: number, person: DirectoryPerson): Promise<number | undefined> {
  const existing = await findUserByEmail(deps.sql, orgId, person.email)
  if (existing) {
    if (existing.disabled_at) return undefined
    await markExternallySignedIn(deps.sql, orgId, existing.id, person.name)
    return existing.id
  }
  const defaultGroup = (await listGroups(deps.sql, orgId)).find((g) => g.type === 'builtin' && g.name === 'default')
  if (!defaultGroup) throw new Error(ldapTexts.noDefaultGroup)
  try {
    return await deps.sql.begin(async (tx) => {
      const id = await insertUser(tx, { orgId, name: person.name, email: person.email, passwordHash: null, groupIds: [defaultGroup.id] })
      await recordEvent(tx, { orgId, userId: id, action: 'create', objectType: 'user', objectId: id, properties: { method: 'ldap' } })
      return id
    })
  } catch (error) {
    // the same person's first two sign-ins at once: the unique index decides, and the second one finds the first's user
    if ((error as { code?: string }).code !== '23505') throw error
    return userFor(deps, orgId, person)
  }
}
