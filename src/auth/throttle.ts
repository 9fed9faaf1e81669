/**
 * How fast passwords may be guessed.
 *
 * Sign-in (`signInVerdict`) counts failed attempts in PostgreSQL, so every web process sees the same counts:
 * - per address: after `addressMaxFailures` failures in the window, that address is refused until its oldest
 *   failure leaves the window. Generous, so a team behind one address is not caught by its own typos.
 * - per account (the email as typed, known or not, so the answer never tells whether an account exists): after
 *   `accountFreeFailures` failures from anyone, attempts must come a growing delay apart (`firstDelayMs`, doubling
 *   per further failure, at most `maxDelayMs`). A too-fast attempt is refused with the time to wait; one that waited
 *   is checked, so the right password always gets in after at most `maxDelayMs`. Addresses that have themselves
 *   failed fewer than `quietAddressFailures` times in the window skip the delay: a stranger hammering an account
 *   slows down themselves and other guessers, not the account's owner signing in from their own desk.
 *
 * Wrong current passwords on the profile page are counted in the same table, per user (src/auth/current-password.ts):
 * after `currentPasswordMaxFailures` in the window, a stolen session cannot guess on until the oldest leaves it.
 */
export interface SignInLimits {
  windowMs: number
  addressMaxFailures: number
  accountFreeFailures: number
  quietAddressFailures: number
  firstDelayMs: number
  maxDelayMs: number
  /** Wrong current passwords one user may give in the window before further tries are refused. */
  currentPasswordMaxFailures: number
  /** Sign-ins one address may have in progress at once in one process; more are refused before any hashing. */
  addressConcurrent: number
  /**
   * How long a refused attempt waits before its 429 goes out. A script guessing in a loop then gets one answer a
   * second per connection instead of thousands, and a held request costs a timer, not the event loop's time.
   */
  refusalPauseMs: number
  /** The clock (ms since the epoch): tests move it instead of sleeping. */
  now: () => number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  windowMs: 15 * 60_000,
  addressMaxFailures: 100,
  accountFreeFailures: 5,
  quietAddressFailures: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 60_000,
  currentPasswordMaxFailures: 10,
  addressConcurrent: 4,
  refusalPauseMs: 1_000,
  now: () => Date.now(),
}

/** Recent failed (or still running) attempts, as counted in the window. */
export interface AttemptCounts {
  addressFailures: number
  /** When the address's oldest counted failure happened (ms), if any. */
  addressOldestMs: number | undefined
  accountFailures: number
  /** When the account was last attempted by anyone (ms), if any. */
  accountLatestMs: number | undefined
}

export type Verdict = { go: true } | { go: false; reason: 'address' | 'account'; retryAfterMs: number }

/** The delay an account under guessing asks for between attempts. */
export function accountDelayMs(accountFailures: number, limits: SignInLimits): number {
  const beyond = accountFailures - limits.accountFreeFailures
  if (beyond < 0) return 0
  return Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** Math.min(beyond, 30))
}

/** Whether an attempt may be checked now, or must wait (and how long). */
export function signInVerdict(counts: AttemptCounts, limits: SignInLimits, now: number): Verdict {
  if (counts.addressFailures >= limits.addressMaxFailures) {
    const freeAt = (counts.addressOldestMs ?? now) + limits.windowMs
    return { go: false, reason: 'address', retryAfterMs: Math.max(1, freeAt - now) }
  }
  const quiet = counts.addressFailures < limits.quietAddressFailures
  const delay = quiet ? 0 : accountDelayMs(counts.accountFailures, limits)
  if (delay > 0 && counts.accountLatestMs !== undefined) {
    const allowedAt = counts.accountLatestMs + delay
    if (now < allowedAt) return { go: false, reason: 'account', retryAfterMs: allowedAt - now }
  }
  return { go: true }
}
