import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * A user sees and ends their own signed-in sessions; an admin ends all of a user's sessions. Nobody else can read
 * or end them, nor the audit log. An ended session stops working at once, in this process and in every other one
 * (the cache bus), and no session's secret ever leaves the server.
 */

let t: TestApp
let other: TestApp
let admin: Client
let member: Client
let memberId: number
let moId: number

const ua = (name: string) => ({ 'user-agent': name })

async function signIn(app: TestApp, email: string, password: string, agent: string) {
  const client = new Client(app.app)
  const res = await client.request('POST', '/login', { form: { email, password }, headers: ua(agent) })
  expect(res.status).toBe(302)
  return client
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  ;({ id: memberId } = await addUser(t, { name: 'Mel', email: 'mel@example.com', password: 'mel-password' }))
  ;({ id: moId } = await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' }))
  member = (await signInAs(t.app, 'mel@example.com', 'mel-password')).client
  // a second web process on the same database: its caches hear revocations only through the bus
  other = await createTestApp({}, { db: t.db })
})
afterAll(async () => {
  await other.deps.bus.stop()
  await other.deps.executionsDone.stop()
  await t.close()
})

type SessionJson = { id: number; device: string; ip: string | null; last_seen_at: string; current: boolean }

describe('sessions', () => {
  it('lists a user\'s own sessions with the device, marking the current one, and never the secret', async () => {
    const phone = await signIn(t, 'mo@example.com', 'mo-password',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')
    await signIn(t, 'mo@example.com', 'mo-password', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0')
    const res = await phone.get(`/api/users/${moId}/sessions`)
    expect(res.status).toBe(200)
    const text = await res.text()
    const sessions = JSON.parse(text) as SessionJson[]
    expect(sessions.map((s) => s.device).sort()).toEqual(['Firefox on Windows', 'Safari on iOS'])
    expect(sessions.filter((s) => s.current).map((s) => s.device)).toEqual(['Safari on iOS'])
    const [{ token_hash: hash }] = await t.db.sql<{ token_hash: Buffer }[]>`select token_hash from sessions where user_id = ${moId} limit 1`
    expect(text).not.toContain(hash.toString('hex'))
    expect(phone.cookies.size).toBeGreaterThan(0)
    for (const value of phone.cookies.values()) expect(text).not.toContain(value)
  })

  it('ends one session: it stops working at once here and in the other web process', async () => {
    const laptop = await signIn(t, 'mo@example.com', 'mo-password', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Chrome/120.0 Safari/537.36')
    const desk = await signIn(t, 'mo@example.com', 'mo-password', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0')
    // the laptop's cookie, used against the other process, is cached there
    const laptopThere = new Client(other.app)
    laptopThere.cookies = new Map(laptop.cookies)
    expect((await laptopThere.get('/api/session')).status).toBe(200)
    const sessions = (await (await desk.get(`/api/users/${moId}/sessions`)).json()) as SessionJson[]
    const target = sessions.find((s) => s.device === 'Chrome on macOS')!
    const seen = new Promise<void>((resolve) => other.deps.bus.on('session', () => resolve()))
    expect((await desk.request('DELETE', `/api/users/${moId}/sessions/${target.id}`)).status).toBe(204)
    await seen
    expect((await laptop.get('/api/session')).status).toBe(401)
    expect((await laptopThere.get('/api/session')).status).toBe(401)
    expect((await desk.get('/api/session')).status).toBe(200)
    expect((await desk.request('DELETE', `/api/users/${moId}/sessions/${target.id}`)).status).toBe(404)
  })

  it('refuses members who read or end someone else\'s sessions, and leaves those sessions alone', async () => {
    const mo = await signIn(t, 'mo@example.com', 'mo-password', 'Agent/1')
    const sessions = (await (await mo.get(`/api/users/${moId}/sessions`)).json()) as SessionJson[]
    expect((await member.get(`/api/users/${moId}/sessions`)).status).toBe(403)
    expect((await member.request('DELETE', `/api/users/${moId}/sessions/${sessions[0].id}`)).status).toBe(403)
    expect((await member.request('DELETE', `/api/users/${moId}/sessions`)).status).toBe(403)
    // a session of another user cannot be ended through one's own address either
    expect((await member.request('DELETE', `/api/users/${memberId}/sessions/${sessions[0].id}`)).status).toBe(404)
    expect((await mo.get('/api/session')).status).toBe(200)
    expect((await new Client(t.app).get(`/api/users/${moId}/sessions`)).status).toBe(401)
  })

  it('lets an admin end all of a user\'s sessions at once, recorded in the audit log', async () => {
    const mo = await signIn(t, 'mo@example.com', 'mo-password', 'Agent/2')
    const moThere = new Client(other.app)
    moThere.cookies = new Map(mo.cookies)
    expect((await moThere.get('/api/session')).status).toBe(200)
    const seen = new Promise<void>((resolve) => other.deps.bus.on('user', (id) => id === String(moId) && resolve()))
    const res = await admin.request('DELETE', `/api/users/${moId}/sessions`)
    expect(res.status).toBe(200)
    expect((await res.json()).ended).toBeGreaterThan(0)
    await seen
    expect((await mo.get('/api/session')).status).toBe(401)
    expect((await moThere.get('/api/session')).status).toBe(401)
    const audit = await (await admin.get(`/api/audit?action=end_all_sessions&object_id=${moId}`)).json()
    expect(audit.results).toHaveLength(1)
  })

  it('keeps the audit log from members', async () => {
    expect((await member.get('/api/audit')).status).toBe(403)
    expect((await member.get('/api/audit.csv?action=login')).status).toBe(403)
  })
})
