import type { Deps } from '../deps.ts'
import { TooManyRequests } from '../errors.ts'
import { recordEvent } from '../events/service.ts'
import { log } from '../log.ts'
import { currentOrg } from '../orgs/service.ts'
import { findUserByEmail } from '../users/store.ts'
import { busyMessage } from './hash-gate.ts'
import { noAccountHash, verifyPassword } from './passwords.ts'
import { openSession } from './service.ts'
import { claimSignInAttempt, deleteSignInAttemptsBefore, dropSignInAttempt, forgetSignInFailures } from './store.ts'
import { signInVerdict, type Verdict } from './throttle.ts'
import { sha256 } from './tokens.ts'

export const signInTexts = {
  wrongCredentials: 'Wrong email or password.',
  passwordLoginDisabled: 'Password login is not enabled for your organization.',
  addressThrottled: (wait: string) => `Too many failed sign-in attempts from your network. Please try again in ${wait}.`,
  accountThrottled: (wait: string) => `Too many failed sign-in attempts for this email. Please wait ${wait} and try again.`,
  busy: busyMessage,
}

export type SignInResult =
  | { ok: true; token: string; remember: boolean; userId: number }
  | { ok: false; message: string }
  /** Refused before the password was checked: answer 429 with Retry-After. */
  | { ok: false; message: string; retryAfterSeconds: number }

/** Where the address cannot be known (no socket, as in `app.request()` without bindings), all callers share one. */
const UNKNOWN_ADDRESS = 'unknown'

/** Sign-ins in progress per address in this process: the cheapest refusal, before the database or the hash. */
const inProgress = new Map<string, number>()
let lastPrunedMs = 0
const PRUNE_EVERY_MS = 60_000

/**
 * Check a password sign-in; on success open a session and return its cookie token. Every check is counted and
 * limited before the password is hashed (src/auth/throttle.ts says how), and the hash itself waits for the
 * process's hash gate, so a flood of sign-ins can neither guess fast nor take the thread pool from other work.
 */
export async function signIn(deps: Deps, input: SignInInput): Promise<SignInResult> {
  const result = await attempt(deps, input)
  if (!result.ok && 'retryAfterSeconds' in result) await pauseRefusal(deps.config.signInLimits.refusalPauseMs)
  return result
}

type SignInInput = { email: string; password: string; remember: boolean; userAgent?: string; ip?: string }

async function attempt(deps: Deps, input: SignInInput): Promise<SignInResult> {
  const org = await currentOrg(deps)
  if (!org) return { ok: false, message: signInTexts.wrongCredentials }
  if (!org.settings.auth_password_login_enabled) return { ok: false, message: signInTexts.passwordLoginDisabled }
  const address = input.ip ?? UNKNOWN_ADDRESS
  const running = inProgress.get(address) ?? 0
  if (running >= deps.config.signInLimits.addressConcurrent) return { ok: false, message: signInTexts.busy, retryAfterSeconds: 1 }
  inProgress.set(address, running + 1)
  try {
    return await checkPassword(deps, org.id, address, input)
  } finally {
    const left = (inProgress.get(address) ?? 1) - 1
    if (left > 0) inProgress.set(address, left)
    else inProgress.delete(address)
  }
}

/** Refusals being held back right now; past the cap they are answered at once rather than pile up. */
let pausedRefusals = 0
const MAX_PAUSED_REFUSALS = 1_000

async function pauseRefusal(ms: number) {
  if (ms <= 0 || pausedRefusals >= MAX_PAUSED_REFUSALS) return
  pausedRefusals++
  try {
    await new Promise((resolve) => setTimeout(resolve, ms))
  } finally {
    pausedRefusals--
  }
}

async function checkPassword(deps: Deps, orgId: number, address: string, input: SignInInput): Promise<SignInResult> {
  const limits = deps.config.signInLimits
  const now = limits.now()
  await pruneOldAttempts(deps, now)
  const email = input.email.trim().toLowerCase()
  // unknown emails are counted like known ones, so neither the limits nor the time taken tell them apart
  const account = sha256(email)
  let verdict: Verdict = { go: true }
  const { id } = await claimSignInAttempt(deps.sql, { account, address, at: new Date(now), since: new Date(now - limits.windowMs) },
    (counts) => (verdict = signInVerdict(counts, limits, now)).go)
  if (!verdict.go || id === undefined) return refused(verdict)
  const user = await findUserByEmail(deps.sql, orgId, email)
  let valid: boolean
  try {
    valid = await verifyPassword(input.password, user?.password_hash ?? noAccountHash(), address)
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error
    await dropSignInAttempt(deps.sql, id) // never checked, so not a failure
    return { ok: false, message: signInTexts.busy, retryAfterSeconds: 1 }
  }
  if (!user || !valid || user.disabled_at) return { ok: false, message: signInTexts.wrongCredentials }
  await forgetSignInFailures(deps.sql, { id, account, address })
  const token = await openSession(deps, user.id, input.remember, input)
  await recordEvent(deps.sql, { orgId, userId: user.id, action: 'login', objectType: 'redash', objectId: null,
    properties: { user_agent: input.userAgent, ip: input.ip } })
  return { ok: true, token, remember: input.remember, userId: user.id }
}

function refused(verdict: Verdict): SignInResult {
  const retryAfterMs = verdict.go ? 1_000 : verdict.retryAfterMs
  const wait = waitText(retryAfterMs)
  const message = !verdict.go && verdict.reason === 'address' ? signInTexts.addressThrottled(wait) : signInTexts.accountThrottled(wait)
  return { ok: false, message, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
}

function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000))
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`
  return `${Math.ceil(seconds / 60)} minutes`
}

/** Attempts older than the window no longer count: drop them now and then (at most once a minute per process). */
async function pruneOldAttempts(deps: Deps, now: number) {
  if (Math.abs(now - lastPrunedMs) < PRUNE_EVERY_MS) return
  lastPrunedMs = now
  try {
    await deleteSignInAttemptsBefore(deps.sql, new Date(now - deps.config.signInLimits.windowMs))
  } catch (error) {
    log.warn('could not prune old sign-in attempts', { error: String(error) })
  }
}
