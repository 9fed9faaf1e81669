import { describe, expect, it } from 'vitest'
import { accountDelayMs, DEFAULT_SIGN_IN_LIMITS, signInVerdict, type AttemptCounts } from './throttle.ts'

const limits = { ...DEFAULT_SIGN_IN_LIMITS, windowMs: 900_000, addressMaxFailures: 100, accountFreeFailures: 5, quietAddressFailures: 5, firstDelayMs: 1_000, maxDelayMs: 60_000 }
const counts = (c: Partial<AttemptCounts>): AttemptCounts =>
  ({ addressFailures: 0, addressOldestMs: undefined, accountFailures: 0, accountLatestMs: undefined, ...c })

describe('signInVerdict', () => {
  it('refuses an address at its failure limit until its oldest failure leaves the window', () => {
    expect(signInVerdict(counts({ addressFailures: 99, addressOldestMs: 0 }), limits, 1_000)).toEqual({ go: true })
    expect(signInVerdict(counts({ addressFailures: 100, addressOldestMs: 0 }), limits, 100_000))
      .toEqual({ go: false, reason: 'address', retryAfterMs: 800_000 })
  })

  it('spaces attempts on an account under guessing by a delay that doubles up to the maximum', () => {
    expect(accountDelayMs(4, limits)).toBe(0)
    expect([5, 6, 7, 11, 12, 500].map((n) => accountDelayMs(n, limits))).toEqual([1_000, 2_000, 4_000, 60_000, 60_000, 60_000])
    const guessing = counts({ addressFailures: 7, accountFailures: 7, accountLatestMs: 10_000 })
    expect(signInVerdict(guessing, limits, 11_000)).toEqual({ go: false, reason: 'account', retryAfterMs: 3_000 })
    // once the delay has passed the attempt is checked: the right password is never refused outright
    expect(signInVerdict(guessing, limits, 14_000)).toEqual({ go: true })
  })

  it('lets an address with few failures of its own through however hard others guess at the account', () => {
    const underAttack = { accountFailures: 500, accountLatestMs: 10_000 }
    expect(signInVerdict(counts({ ...underAttack, addressFailures: 4 }), limits, 10_001)).toEqual({ go: true })
    expect(signInVerdict(counts({ ...underAttack, addressFailures: 5 }), limits, 10_001).go).toBe(false)
  })
})
