import type { Deps } from '../deps.ts'
import { perDatabase } from '../db/index.ts'
import { TooManyRequests } from '../errors.ts'
import { recordEvent } from '../events/index.ts'
import { log } from '../log.ts'
import { currentOrg } from '../orgs/index.ts'
import { findUserByEmail } from '../users/index.ts'
import { busyMessage, passwordHashing, type Rank, noAccountHash, verifyPassword, openSession, claimSignInAttempt, deleteSignInAttemptsBefore, dropSignInAttempt, forgetSignInFailures, hasSessionFrom, signInVerdict, type AttemptCounts, type SignInLimits, type Verdict, sha256, waitText } from '../credentials/index.ts'

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

/**
 * Addresses this process lately turned away for want of room (more sign-ins at once than an address may have, or
 * the hash gate's open line full), until when. Such an address is flooding: none of its attempts is above suspicion,
 * failures counted or not yet, and its hashes waiting in the clean line move out of it. A sign-in that gets in
 * clears the mark.
 */
const turnedAwayOf = perDatabase(() => new Map<string, number>())
const MAX_TURNED_AWAY = 50_000

function turnAway(turnedAway: Map<string, number>, address: string, limits: SignInLimits): SignInResult {
  turnedAway.delete(address) // re-inserted last, so the oldest mark is the first to go when the map is full
  turnedAway.set(address, limits.now() + limits.windowMs)
  if (turnedAway.size > MAX_TURNED_AWAY) turnedAway.delete(turnedAway.keys().next().value as string)
  passwordHashing.demote(address)
  return { ok: false, message: signInTexts.busy, retryAfterSeconds: 1 }
}

function latelyTurnedAway(turnedAway: Map<string, number>, address: string, now: number): boolean {
  const until = turnedAway.get(address)
  if (until === undefined) return false
  if (until > now) return true
  turnedAway.delete(address)
  return false
}
let lastPrunedMs = 0
const PRUNE_EVERY_MS = 60_000

/**
 * Check a password sign-in; on success open a session and return its cookie token. Every check is counted and
 * limited before the password is hashed (src/credentials/throttle.ts says how), and the hash itself waits for the
 * process's hash gate, so a flood of sign-ins can neither guess fast nor take the thread pool from other work; the
 * gate keeps lines for attempts with no recent failures and from where the account is signed in already, so a flood
 * does not keep everyone else out either.
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
  if (running >= deps.config.signInLimits.addressConcurrent) return turnAway(turnedAwayOf(deps.sql), address, deps.config.signInLimits)
  inProgress.set(address, running + 1)
  try {
    // another sign-in from the address under way here: this one is not the address's first, whatever the count says
    // (attempts claimed at the same moment do not see each other's rows)
    return await checkPassword(deps, org.id, address, input, running > 0)
  } finally {
    const left = (inProgress.get(address) ?? 1) - 1
    if (left > 0) inProgress.set(address, left)
    else inProgress.delete(address)
  }
}

/** Refusals being held back right now; past the cap they are answered at once rather than pile up. */
let pausedRefusals = 0
const MAX_PAUSED_REFUSALS = 1_000

export async function pauseRefusal(ms: number) {
  if (ms <= 0 || pausedRefusals >= MAX_PAUSED_REFUSALS) return
  pausedRefusals++
  try {
    await new Promise((resolve) => setTimeout(resolve, ms))
  } finally {
    pausedRefusals--
  }
}

async function checkPassword(deps: Deps, orgId: number, address: string, input: SignInInput, concurrent: boolean): Promise<SignInResult> {
  const limits = deps.config.signInLimits
  const now = limits.now()
  await pruneOldAttempts(deps, now)
  const email = input.email.trim().toLowerCase()
  // unknown emails are counted like known ones, so neither the limits nor the time taken tell them apart
  const account = sha256(email)
  let verdict: Verdict = { go: true }
  const { id, counts } = await claimSignInAttempt(deps.sql, { account, address, at: new Date(now), since: new Date(now - limits.windowMs) },
    (counts) => (verdict = signInVerdict(counts, limits, now)).go)
  if (!verdict.go || id === undefined) return refused(verdict)
  const [user, knownAddress] = await Promise.all([
    findUserByEmail(deps.sql, orgId, email),
    hasSessionFrom(deps.sql, { orgId, email, address }),
  ])
  let valid: boolean
  const rank = hashRank(counts, limits, knownAddress, concurrent || latelyTurnedAway(turnedAwayOf(deps.sql), address, now))
  try {
    valid = await verifyPassword(input.password, user?.password_hash ?? noAccountHash(), { whose: address, rank })
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error
    await dropSignInAttempt(deps.sql, id) // never checked, so not a failure
    // no room in the trusted or clean line is no sign of flooding (a flood from many fresh addresses fills the clean one)
    return rank !== 'open' ? { ok: false, message: signInTexts.busy, retryAfterSeconds: 1 } : turnAway(turnedAwayOf(deps.sql), address, limits)
  }
  if (!user || !valid || user.disabled_at) {
    // recorded for unknown e-mails too, the same way, so the audit log shows guessing and its timing tells nothing
    await recordEvent(deps.sql, { orgId, userId: user?.id ?? null, action: 'login_failed', objectType: 'redash', objectId: null,
      properties: { method: 'password', email: email.slice(0, 320), user_agent: input.userAgent, ip: input.ip } })
    return { ok: false, message: signInTexts.wrongCredentials }
  }
  turnedAwayOf(deps.sql).delete(address)
  await forgetSignInFailures(deps.sql, { id, account, address })
  const token = await openSession(deps, user.id, input.remember, input)
  await recordEvent(deps.sql, { orgId, userId: user.id, action: 'login', objectType: 'redash', objectId: null,
    properties: { method: 'password', user_agent: input.userAgent, ip: input.ip } })
  return { ok: true, token, remember: input.remember, userId: user.id }
}

/**
 * Which line of the hash gate an attempt waits in, so that guessers, however many addresses they come from, slow
 * each other and not everyone: trusted when the account already has a session from this address (its owner's usual
 * place, which no stranger can claim) and the address has few failures (a member guessing on their own account from
 * their desk soon loses it), clean from an address and on an account with no failed (or running) attempts
 * in the window, unless the address has another sign-in under way or was lately turned away as flooding; open
 * otherwise.
 */
function hashRank(counts: AttemptCounts, limits: SignInLimits, knownAddress: boolean, busyAddress: boolean): Rank {
  if (knownAddress && counts.addressFailures < limits.quietAddressFailures) return 'trusted'
  return counts.addressFailures === 0 && counts.accountFailures === 0 && !busyAddress ? 'clean' : 'open'
}

export function refused(verdict: Verdict): SignInResult {
  const retryAfterMs = verdict.go ? 1_000 : verdict.retryAfterMs
  const wait = waitText(retryAfterMs)
  const message = !verdict.go && verdict.reason === 'address' ? signInTexts.addressThrottled(wait) : signInTexts.accountThrottled(wait)
  return { ok: false, message, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
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
