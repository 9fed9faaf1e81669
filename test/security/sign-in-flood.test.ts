import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { passwordHashing } from '../../src/credentials/index.ts'
import { loadConfig } from '../../src/config.ts'
import { ADMIN, addUser, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * A sign-in flood from many addresses must not lock everyone out: guessers fill the hash gate's open line, while a
 * colleague from an address with no failures, and a signed-in user changing their password, still get the next turn.
 * Every hash is held until the test lets it go, so turns are observed, not timed.
 */

const FLOOD_ADDRESSES = Array.from({ length: 32 }, (_, i) => `198.51.100.${i + 1}`)
const COLLEAGUE = '192.0.2.10'
const NEW_COLLEAGUE = '192.0.2.11'
const BO = { name: 'Bo', email: 'bo@example.com', password: 'bo-password' }
let t: TestApp

beforeAll(async () => {
  // the gate's rest after each hash is timed on the real clock (src/credentials/hash-gate.test.ts covers it): here, where
  // hashes are held for as long as the test likes, only the order of turns is watched, so the rest is skipped
  Object.assign(passwordHashing.o, { rest: () => Promise.resolve() })
  t = await createTestApp({ signInLimits: { ...loadConfig({}).signInLimits, refusalPauseMs: 0 } })
  await setUp(t.app)
  await addUser(t, BO)
  await floodAddressesHaveFailed()
})
afterAll(() => t.close())

async function signIn(from: string, email: string, password: string): Promise<Response> {
  return await t.app.request('/login', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }).toString(),
  }, { incoming: { socket: { remoteAddress: from } } })
}

const signedIn = (res: Response) => res.status === 302 && res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))
const randomEmail = () => `nobody-${crypto.randomBytes(6).toString('hex')}@example.com`

/** Wait for a condition, checking every few milliseconds, up to a generous deadline. */
async function waitFor(condition: () => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} (${scrypt?.started.length} hashes started, ${scrypt?.held.length} held, ${JSON.stringify(passwordHashing.waiting)} waiting)`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

const REAL_PASSWORDS = new Set([ADMIN.password, BO.password, 'bo-new-password'])

/**
 * Hold every scrypt call until released. A released guess answers at once with a key that matches nothing (the
 * guesses are wrong anyway); a real password is hashed for real, so it signs in.
 */
function holdScrypt() {
  const original = crypto.scrypt
  const held: { password: string; go: () => void }[] = []
  const started: string[] = []
  let passThrough = false
  vi.spyOn(crypto, 'scrypt').mockImplementation(((password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions, done: (e: Error | null, key: Buffer) => void) => {
    started.push(password)
    const go = () => (REAL_PASSWORDS.has(password) ? original(password, salt, keylen, options, done) : done(null, Buffer.alloc(keylen)))
    if (passThrough) go()
    else held.push({ password, go })
  }) as typeof crypto.scrypt)
  return {
    held, started,
    /** Let the running hash finish. */
    releaseOne: () => held.shift()?.go(),
    releaseAll: () => {
      passThrough = true
      held.splice(0).forEach((h) => h.go())
    },
  }
}

let scrypt: ReturnType<typeof holdScrypt> | undefined
afterEach(() => {
  scrypt?.releaseAll() // a failed test must not leave hashes held for the next one
  vi.restoreAllMocks()
})

/** Every flood address fails once, so none of them is above suspicion any more. */
async function floodAddressesHaveFailed() {
  scrypt = holdScrypt()
  scrypt.releaseAll()
  for (const from of FLOOD_ADDRESSES) expect((await signIn(from, randomEmail(), 'guess')).status).toBe(200)
  vi.restoreAllMocks()
}

/** 32 addresses, 4 guesses each at once: one hash runs (held), the open line fills, the rest are refused. */
async function startFlood(addresses = FLOOD_ADDRESSES) {
  scrypt = holdScrypt()
  const answers: Response[] = []
  const all = addresses.flatMap((from) => Array.from({ length: 4 }, () => signIn(from, randomEmail(), 'guess').then((res) => answers.push(res))))
  // one hash running, ten waiting: everything else has been answered 429 before any hashing
  await waitFor(() => answers.length >= all.length - 11 && scrypt!.started.length === 1, 'the flood to fill the line')
  expect(answers.every((r) => r.status === 429)).toBe(true)
  return { answers, all }
}

describe('a sign-in flood from many addresses', () => {
  it('leaves a colleague from a clean address the next turn: they sign in, not 429, not behind the whole line', async () => {
    const flood = await startFlood()
    const s = scrypt!

    let answer: Response | undefined
    const colleague = signIn(COLLEAGUE, ADMIN.email, ADMIN.password).then((res) => (answer = res))
    // the colleague waits for the hash that is running, not for the ten guesses in line before them
    await waitFor(() => answer !== undefined || passwordHashing.waiting?.clean === 1, 'the colleague to be in line')
    expect(answer?.status).toBeUndefined()
    s.releaseOne()
    await waitFor(() => s.started.length === 2, 'the next hash to start')
    expect(s.started[1]).toBe(ADMIN.password)
    s.releaseOne()
    expect(signedIn(await colleague)).toBe(true)

    s.releaseAll()
    await Promise.all(flood.all)
    expect(flood.answers.every((r) => r.status === 200 || r.status === 429)).toBe(true)
  }, 60_000)

  it('keeps the clean line for them even when the flood comes from addresses that have not failed yet', async () => {
    scrypt = holdScrypt()
    const s = scrypt
    const answers: Response[] = []
    const fresh = Array.from({ length: 32 }, (_, i) => `198.51.101.${i + 1}`)
    const all = fresh.flatMap((from) => Array.from({ length: 4 }, () => signIn(from, randomEmail(), 'guess').then((res) => answers.push(res))))
    // every guess answered, waiting or running: an address whose guesses were turned away for want of room is flooding,
    // so its first guess, clean as it looked, has left the reserved line
    await waitFor(() => s.started.length === 1 && answers.length + passwordHashing.waitingCount + 1 === all.length, 'the flood to settle')
    expect(passwordHashing.waiting.open).toBe(10)
    expect(passwordHashing.waiting.clean).toBeLessThanOrEqual(3)

    // a colleague who never signed in from their address before: the clean line has room for them
    let answer: Response | undefined
    const colleague = signIn(NEW_COLLEAGUE, BO.email, BO.password).then((res) => (answer = res))
    const before = passwordHashing.waiting.clean
    await waitFor(() => answer !== undefined || passwordHashing.waiting.clean === before + 1, 'the colleague to be in line')
    expect(answer?.status).toBeUndefined()
    s.releaseAll()
    expect(signedIn(await colleague)).toBe(true)
    await Promise.all(all)
  }, 60_000)

  it('serves a colleague signing in where they did before first, even while fresh addresses fill the clean line', async () => {
    expect(signedIn(await signIn(COLLEAGUE, ADMIN.email, ADMIN.password))).toBe(true) // their desk
    scrypt = holdScrypt()
    const s = scrypt
    const answers: Response[] = []
    // one guess at a time from each of 32 addresses never seen before: each looks clean until it has failed
    const all = Array.from({ length: 32 }, (_, i) => signIn(`198.51.102.${i + 1}`, randomEmail(), 'guess').then((res) => answers.push(res)))
    await waitFor(() => s.started.length === 1 && answers.length + passwordHashing.waitingCount + 1 === all.length, 'the flood to settle')
    expect(passwordHashing.waiting.clean).toBe(10)

    let answer: Response | undefined
    const colleague = signIn(COLLEAGUE, ADMIN.email, ADMIN.password).then((res) => (answer = res))
    await waitFor(() => answer !== undefined || passwordHashing.waiting?.trusted === 1, 'the colleague to be in line')
    expect(answer?.status).toBeUndefined()
    s.releaseOne()
    await waitFor(() => s.started.length === 2, 'the next hash to start')
    expect(s.started[1]).toBe(ADMIN.password)
    s.releaseAll()
    expect(signedIn(await colleague)).toBe(true)
    await Promise.all(all)
  }, 60_000)

  it('lets a signed-in user change their password during the flood: each of its hashes goes next', async () => {
    const { client } = await signInAs(t.app, BO.email, BO.password)
    const [{ id }] = await t.db.sql<{ id: number }[]>`select id from users where email = ${BO.email}`
    const flood = await startFlood()
    const s = scrypt!

    let answer: Response | undefined
    const change = client.post(`/api/users/${id}`, { old_password: BO.password, password: 'bo-new-password' }).then((res) => (answer = res))
    await waitFor(() => answer !== undefined || passwordHashing.waiting?.trusted === 1, 'the password change to be in line')
    expect(answer?.status).toBeUndefined()
    s.releaseOne()
    await waitFor(() => s.started.length === 2, 'the current password to be checked')
    expect(s.started[1]).toBe(BO.password)
    s.releaseOne()
    // then the new password is hashed: it joins the reserved line while a guess has taken the free slot, and goes next
    await waitFor(() => (s.started.length === 3 && passwordHashing.waiting.trusted === 1) || answer !== undefined, 'the new password to be in line')
    expect(answer?.status).toBeUndefined()
    s.releaseOne()
    await waitFor(() => s.started.length === 4, 'the new password to be hashed')
    expect(s.started[3]).toBe('bo-new-password')
    s.releaseOne()
    expect((await change).status).toBe(200)

    s.releaseAll()
    await Promise.all(flood.all)
  }, 60_000)

  it('keeps guessing slow all the same: one hash at a time, a line of ten, the rest refused before hashing', async () => {
    const flood = await startFlood()
    const s = scrypt!
    for (let turn = 0; turn < 11; turn++) {
      await waitFor(() => s.held.length === 1, `hash ${turn + 1} to run`)
      s.releaseOne()
    }
    await waitFor(() => flood.answers.length === flood.all.length, 'every answer')
    expect(flood.answers.filter((r) => r.status === 200)).toHaveLength(11)
    expect(s.started).toHaveLength(11)
  }, 60_000)
})
