/* The sign-in limits are part of the process's configuration (src/config.ts): declared here, below everything, so
 * configuration depends on no domain. The rules that apply them live in src/credentials/throttle.ts. */

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
 * Wrong current passwords on the profile page are counted in the same table, per user (src/credentials/current-password.ts):
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
