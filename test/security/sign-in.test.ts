import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { usePasswordCost } from '../../src/credentials/index.ts'
import { loadConfig } from '../../src/config.ts'
import { ADMIN, addUser, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

// Attacks on password sign-in: guessing through spoofed addresses, locking a user out, and flooding the hashes.

const clock = { now: Date.UTC(2030, 0, 1) }
const ADDRESS_LIMIT = 30
const VICTIM = { name: 'Vic Tim', email: 'victim@example.com', password: 'victim-password' }
let t: TestApp

beforeAll(async () => {
  t = await createTestApp({
    trustedProxies: ['10.0.0.0/8'],
    signInLimits: { ...loadConfig({}).signInLimits, addressMaxFailures: ADDRESS_LIMIT, refusalPauseMs: 0, now: () => clock.now },
  })
  await setUp(t.app)
  await addUser(t, VICTIM)
})
afterAll(() => t.close())

/** POST /login as a browser's form would, over a connection from `from` (the socket's address, as the server sees it). */
async function signIn(o: { from: string; email: string; password: string; forwardedFor?: string; accept?: string }): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (o.forwardedFor) headers['x-forwarded-for'] = o.forwardedFor
  if (o.accept) headers.accept = o.accept
  return await t.app.request('/login', { method: 'POST', headers, body: new URLSearchParams({ email: o.email, password: o.password }).toString() },
    { incoming: { socket: { remoteAddress: o.from } } })
}

const signedIn = (res: Response) => res.status === 302 && res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))
const randomEmail = () => `nobody-${crypto.randomBytes(6).toString('hex')}@example.com`

/** Wait for a condition, checking every few milliseconds, up to a generous deadline. */
async function waitFor(condition: () => boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

let releaseHeldScrypt: (() => void) | undefined
afterEach(() => releaseHeldScrypt?.()) // a failed test must not leave hashes held for the next one

/** Hold every scrypt call until released, counting how many run at once. */
function holdScrypt() {
  const original = crypto.scrypt
  const held: (() => void)[] = []
  const state = { running: 0, peak: 0, calls: [] as crypto.ScryptOptions[] }
  let passThrough = false
  vi.spyOn(crypto, 'scrypt').mockImplementation(((password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions, done: (e: Error | null, key: Buffer) => void) => {
    state.running++
    state.peak = Math.max(state.peak, state.running)
    state.calls.push(options)
    const go = () => original(password, salt, keylen, options, (error, key) => {
      state.running--
      done(error, key)
    })
    if (passThrough) go()
    else held.push(go)
  }) as typeof crypto.scrypt)
  releaseHeldScrypt = () => {
    passThrough = true
    held.splice(0).forEach((go) => go())
  }
  /** Let held hashes go, one batch every few milliseconds, until `until` holds. */
  const releaseUntil = (until: () => boolean, what: string) => waitFor(() => {
    held.splice(0).forEach((go) => go())
    return until()
  }, what)
  return { state, releaseUntil }
}

describe('sign-in limits are keyed on the real client address', () => {
  it('a fresh X-Forwarded-For per try does not reset the address limit', async () => {
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      const res = await signIn({ from: '203.0.113.5', email: randomEmail(), password: 'guess', forwardedFor: `198.51.100.${i}` })
      expect(res.status).toBe(200)
    }
    const res = await signIn({ from: '203.0.113.5', email: randomEmail(), password: 'guess', forwardedFor: '198.51.100.250' })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await res.text()).toContain('Too many failed sign-in attempts from your network')
    // the right password from that address waits too; from anywhere else it works
    expect((await signIn({ from: '203.0.113.5', email: ADMIN.email, password: ADMIN.password, forwardedFor: '192.0.2.1' })).status).toBe(429)
    expect(signedIn(await signIn({ from: '203.0.113.6', email: ADMIN.email, password: ADMIN.password }))).toBe(true)
  })

  it("a trusted proxy's X-Forwarded-For names the caller, read from the proxy's end", async () => {
    // the caller wrote "203.0.113.99" itself; our proxies (10/8) appended the address they saw
    const viaProxies = (caller: string) => `203.0.113.99, ${caller}, 10.7.7.7`
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      expect((await signIn({ from: '10.1.2.3', email: randomEmail(), password: 'guess', forwardedFor: viaProxies('198.51.100.20') })).status).toBe(200)
    }
    expect((await signIn({ from: '10.1.2.3', email: randomEmail(), password: 'guess', forwardedFor: viaProxies('198.51.100.20') })).status).toBe(429)
    // the same caller connecting directly is the same address; another caller behind the same proxy is not
    expect((await signIn({ from: '198.51.100.20', email: randomEmail(), password: 'guess' })).status).toBe(429)
    expect((await signIn({ from: '10.1.2.3', email: randomEmail(), password: 'guess', forwardedFor: viaProxies('198.51.100.21') })).status).toBe(200)
    expect((await signIn({ from: '10.1.2.3', email: randomEmail(), password: 'guess', forwardedFor: '203.0.113.99' })).status).toBe(200)
  })
})

describe('guessing at one account', () => {
  it("a stranger's 20 wrong passwords slow the stranger down but do not keep the account's owner out", async () => {
    const stranger = '192.0.2.66'
    let wrong = 0
    let tooFast = 0
    while (wrong < 20) {
      const res = await signIn({ from: stranger, email: VICTIM.email, password: `guess-${wrong}` })
      if (res.status === 429) {
        tooFast++
        const wait = Number(res.headers.get('retry-after'))
        expect(wait).toBeGreaterThan(0)
        expect(wait).toBeLessThanOrEqual(60)
        expect(await res.text()).toContain('Too many failed sign-in attempts for this email')
        clock.now += wait * 1000
      } else {
        expect(res.status).toBe(200)
        expect(await res.text()).toContain('Wrong email or password.')
        wrong++
      }
    }
    expect(tooFast).toBeGreaterThan(0)
    // the owner, from their own address: straight in
    expect(signedIn(await signIn({ from: '192.0.2.10', email: VICTIM.email, password: VICTIM.password }))).toBe(true)
    // even from the stranger's own address (a shared office), after at most the delay asked for
    const early = await signIn({ from: stranger, email: VICTIM.email, password: VICTIM.password })
    expect(early.status).toBe(429)
    const wait = Number(early.headers.get('retry-after'))
    expect(wait).toBeLessThanOrEqual(60)
    clock.now += wait * 1000
    expect(signedIn(await signIn({ from: stranger, email: VICTIM.email, password: VICTIM.password }))).toBe(true)
  })

  it('answers a too-fast attempt 429 in JSON to a script, and the sign-in page with the reason to a browser', async () => {
    const from = '192.0.2.77'
    const email = randomEmail()
    for (let i = 0; i < 5; i++) expect((await signIn({ from, email, password: 'guess' })).status).toBe(200)
    const api = await signIn({ from, email, password: 'guess', accept: 'application/json' })
    expect(api.status).toBe(429)
    expect(api.headers.get('retry-after')).toBe('1')
    expect(await api.json()).toEqual({ message: 'Too many failed sign-in attempts for this email. Please wait 1 second and try again.' })
    const page = await signIn({ from, email, password: 'guess', accept: 'text/html' })
    expect(page.status).toBe(429)
    const html = await page.text()
    expect(html).toContain('Too many failed sign-in attempts for this email. Please wait 1 second and try again.')
    expect(html).toContain('name="password"')
  })

  it('checks an unknown email with the same scrypt work as a known one', async () => {
    const scrypt = holdScrypt()
    const outcomes = Promise.all([
      signIn({ from: '192.0.2.90', email: randomEmail(), password: 'guess' }),
      signIn({ from: '192.0.2.91', email: VICTIM.email, password: 'guess' }),
    ])
    await scrypt.releaseUntil(() => scrypt.state.calls.length >= 2 && scrypt.state.running === 0, 'both hashes')
    expect((await outcomes).map((r) => r.status)).toEqual([200, 200])
    const [unknown, known] = scrypt.state.calls
    expect({ N: unknown.N, r: unknown.r, p: unknown.p }).toEqual({ N: known.N, r: known.r, p: known.p })
  })
})

describe('a flood of sign-ins', () => {
  // what is checked here is the gate's line and turns, not what a hash costs: eleven full-strength hashes, each
  // followed by its rest, take over a minute of real time on a busy two-core machine
  beforeAll(() => usePasswordCost('test'))
  afterAll(() => usePasswordCost('strong'))

  it('hashes one password at a time, and refuses what does not fit in the line before hashing it', async () => {
    const scrypt = holdScrypt()
    const answers: Response[] = []
    const all = Array.from({ length: 40 }, (_, i) =>
      signIn({ from: `198.18.0.${i + 1}`, email: randomEmail(), password: 'guess' }).then((res) => answers.push(res)))
    // while the first hash is held (or the gate rests after the last one), all beyond the line of 10 are answered at once
    await waitFor(() => answers.length >= 29, 'the refusals')
    expect(answers.map((r) => r.status)).toEqual(Array(answers.length).fill(429))
    expect(await answers[0].text()).toContain('The server is busy checking passwords')
    expect(scrypt.state.calls.length).toBeLessThanOrEqual(1)
    await scrypt.releaseUntil(() => answers.length === 40, 'every answer')
    await Promise.all(all)
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(11)
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true)
    expect(scrypt.state.peak).toBe(1)
  }, 120_000) // eleven hashes, each followed by its rest while others wait, on a machine that may be busy

  it('lets one address have only a few sign-ins in progress', async () => {
    const scrypt = holdScrypt()
    const answers: Response[] = []
    const all = Array.from({ length: 10 }, () =>
      signIn({ from: '198.19.0.1', email: randomEmail(), password: 'guess' }).then((res) => answers.push(res)))
    await waitFor(() => answers.length >= 6, 'the refusals')
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(429))
    await scrypt.releaseUntil(() => answers.length === 10, 'every answer')
    await Promise.all(all)
    expect(answers.slice(6).map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(scrypt.state.peak).toBe(1)
  }, 120_000)
})

describe('guessing the current password on the profile', () => {
  /**
   * A second web process on the same database: Sightline's modules loaded afresh (nothing in memory shared with the
   * first), the same configuration and secret.
   */
  async function secondWebProcess() {
    vi.resetModules()
    const { createApp } = await import('../../src/app.ts')
    const { createDeps } = await import('../../src/create-deps.ts')
    return createApp(createDeps({ sql: t.db.sql, config: t.deps.config, secretKey: t.deps.secretKey, assets: t.deps.assets, features: t.deps.features }))
  }

  it('counts wrong current passwords in the database: two web processes allow the tries of one, then 429 with Retry-After', async () => {
    const mallory = { name: 'Mal', email: 'mal@example.com', password: 'mal-password' }
    const { id } = await addUser(t, mallory)
    const other = await secondWebProcess()
    // one stolen session, used through both processes
    const { client } = await signInAs(t.app, mallory.email, mallory.password)
    const viaOther = (body: unknown) => other.request(`/api/users/${id}`, {
      method: 'POST', headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': client.csrf, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const guess = (i: number) => ({ old_password: `guess-${i}`, password: 'taken-over' })
    for (let i = 0; i < 10; i++) {
      const res = i % 2 ? await viaOther(guess(i)) : await client.post(`/api/users/${id}`, guess(i))
      expect(res.status).toBe(403)
    }
    for (const res of [await client.post(`/api/users/${id}`, guess(10)), await viaOther(guess(11))]) {
      expect(res.status).toBe(429)
      expect(await res.json()).toEqual({ message: expect.stringContaining('Too many wrong current passwords') })
      const wait = Number(res.headers.get('retry-after'))
      expect(wait).toBeGreaterThan(0)
      expect(wait).toBeLessThanOrEqual(15 * 60)
    }
    // the right password waits too (it is not even checked), until the oldest wrong one has left the window
    expect((await viaOther({ old_password: mallory.password, password: 'new-password' })).status).toBe(429)
    clock.now += 15 * 60_000
    expect((await viaOther({ old_password: mallory.password, password: 'new-password' })).status).toBe(200)
    expect(signedIn(await signIn({ from: '192.0.2.30', email: mallory.email, password: 'new-password' }))).toBe(true)
  })
})
