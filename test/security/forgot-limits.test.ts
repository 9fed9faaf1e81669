import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { FORGOT_LIMITS } from '../../src/users/index.ts'
import { addUser, createTestApp, setUp, type TestApp } from '../helpers/app.ts'

// The reset page's limits are counted beside sign-ins but apart from them: what a stranger types into the sign-in
// form (whatever e-mail address, from whatever address) must not spend a user's password-reset requests.

const clock = { now: Date.UTC(2030, 0, 1) }
const VICTIM = { name: 'Vic Tim', email: 'victim@example.com', password: 'victim-password' }
let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ signInLimits: { ...loadConfig({}).signInLimits, refusalPauseMs: 0, now: () => clock.now } })
  await setUp(t.app)
  await addUser(t, VICTIM)
})
afterAll(() => t.close())

const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } })
const form = (fields: Record<string, string>) => ({
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
})

it("failed sign-ins under a reset request's old key do not spend the victim's reset requests", async () => {
  for (let i = 0; i < FORGOT_LIMITS.perEmail + 1; i++) {
    const res = await t.app.request('/login', form({ email: `forgot:${VICTIM.email}`, password: 'wrong' }), from('203.0.113.7'))
    expect(res.status).not.toBe(302)
  }
  const reset = await t.app.request('/forgot', form({ email: VICTIM.email }), from('198.51.100.2'))
  expect(reset.status).toBe(200)
  expect(await reset.text()).not.toContain('Too many password reset requests')
})

it('reset requests are still limited per e-mail address, apart from sign-ins', async () => {
  const email = 'someone@example.com'
  for (let i = 0; i < FORGOT_LIMITS.perEmail; i++) {
    expect((await t.app.request('/forgot', form({ email }), from(`198.51.100.${10 + i}`))).status).toBe(200)
  }
  const refused = await t.app.request('/forgot', form({ email }), from('198.51.100.50'))
  expect(refused.status).toBe(429)
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  // the same e-mail still signs in: a flood of reset requests locks nobody out
  const signIn = await t.app.request('/login', form({ email: VICTIM.email, password: VICTIM.password }), from('198.51.100.50'))
  expect(signIn.status).toBe(302)
})
