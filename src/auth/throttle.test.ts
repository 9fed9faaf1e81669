import { describe, expect, it } from 'vitest'
import { accountDelayMs, DEFAULT_SIGN_IN_LIMITS, LoginThrottle, signInVerdict, type AttemptCounts } from './throttle.ts'

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

describe('LoginThrottle (wrong current passwords on the profile page)', () => {
  it('blocks after the limit of failures within the window, per key and address', () => {
    const throttle = new LoginThrottle(3, 1000)
    for (let i = 0; i < 3; i++) throttle.fail('Ada@example.com', '1.2.3.4', 100)
    expect(throttle.blocked('ada@example.com', '1.2.3.4', 200)).toBe(true)
    expect(throttle.blocked('ada@example.com', '5.6.7.8', 200)).toBe(false)
    expect(throttle.blocked('bo@example.com', '1.2.3.4', 200)).toBe(false)
  })

  it('forgets failures after the window and after a success', () => {
    const throttle = new LoginThrottle(2, 1000)
    throttle.fail('a@x.io', undefined, 0)
    throttle.fail('a@x.io', undefined, 10)
    expect(throttle.blocked('a@x.io', undefined, 500)).toBe(true)
    expect(throttle.blocked('a@x.io', undefined, 1500)).toBe(false)
    throttle.fail('a@x.io', undefined, 2000)
    throttle.fail('a@x.io', undefined, 2001)
    throttle.succeed('a@x.io', undefined)
    expect(throttle.blocked('a@x.io', undefined, 2002)).toBe(false)
  })
})
