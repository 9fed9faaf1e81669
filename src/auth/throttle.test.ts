import { describe, expect, it } from 'vitest'
import { LoginThrottle } from './throttle.ts'

describe('LoginThrottle', () => {
  it('blocks after the limit of failures within the window, per email and address', () => {
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
