/** How fast passwords may be guessed: the verdict on an attempt, from its counts and the limits (src/sign-in-limits.ts). */
export { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../sign-in-limits.ts'
import type { SignInLimits } from '../sign-in-limits.ts'

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
