import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { filter, ScimClient } from '../helpers/scim-client.ts'

// The SCIM token is a way in: only its bearer reaches /api/scim/v2, it opens nothing else, user keys and sessions
// do not open SCIM, a revoked token stops mid-sync, and no SCIM call can make or unmake an admin.

let t: TestApp
let admin: Client
let scim: ScimClient
let adminKey: string
let adminId: number
let adminGroupId: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  scim = new ScimClient(t.app, (await (await admin.request('POST', '/api/scim/token')).json()).token)
  const added = await addUser(t, { name: 'Second Admin', email: 'second@example.com', password: 'second-admin-pw', admin: true })
  adminKey = added.apiKey
  adminId = added.id
  adminGroupId = (await scim.get(`/Groups?filter=${filter('displayName', 'admin')}`)).json.Resources[0].id
}, 60_000)
afterAll(() => t?.close())

const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

describe('who reaches SCIM', () => {
  it('refuses no token, a made-up token, an admin API key and an admin session, in the SCIM error schema', async () => {
    for (const authorization of [undefined, 'Bearer scim_made-up', `Bearer ${adminKey}`, `Key ${adminKey}`, adminKey]) {
      const res = await t.app.request('/api/scim/v2/Users', { headers: authorization ? { authorization } : {} })
      expect(res.status).toBe(401)
      expect((await res.json()).schemas).toEqual([SCIM_ERROR])
    }
    expect((await t.app.request(`/api/scim/v2/Users?api_key=${adminKey}`)).status).toBe(401)
    expect((await admin.get('/api/scim/v2/Users')).status).toBe(401)
  })

  it('the SCIM token opens nothing outside /api/scim/v2', async () => {
    for (const headers of [{ authorization: `Bearer ${scim.token}` }, { authorization: `Key ${scim.token}` }, { authorization: scim.token }]) {
      expect((await t.app.request('/api/users', { headers })).status).toBe(401)
      expect((await t.app.request('/api/scim/token', { headers })).status).toBe(401)
    }
    expect((await t.app.request(`/api/users?api_key=${scim.token}`)).status).toBe(401)
  })

  it('lets only admins make, read or revoke the token', async () => {
    await addUser(t, { name: 'Member', email: 'member@example.com', password: 'member-password' })
    const { client: member } = await signInAs(t.app, 'member@example.com', 'member-password')
    expect((await member.request('POST', '/api/scim/token')).status).toBe(403)
    expect((await member.request('DELETE', '/api/scim/token')).status).toBe(403)
    expect((await member.get('/api/scim/token')).status).toBe(403)
    expect((await new Client(t.app).request('POST', '/api/scim/token')).status).toBe(401)
    expect(await (await admin.get('/api/scim/token')).json()).toMatchObject({ exists: true })
    // stored only hashed
    const [row] = await t.db.sql`select token_hash from scim_tokens`
    expect(row.token_hash.toString('utf8')).not.toContain(scim.token)
  })
})

describe('no admin through SCIM', () => {
  it('refuses any change to the admin group’s members', async () => {
    const user = (await scim.post('/Users', { userName: 'climber@example.com' })).json
    const attempts = [
      scim.patch(`/Groups/${adminGroupId}`, [{ op: 'add', path: 'members', value: [{ value: user.id }] }]),
      scim.patch(`/Groups/${adminGroupId}`, [{ op: 'Add', path: 'members', value: [{ value: user.id }] }]),
      scim.patch(`/Groups/${adminGroupId}`, [{ op: 'remove', path: `members[value eq "${adminId}"]` }]),
      scim.patch(`/Groups/${adminGroupId}`, [{ op: 'remove', path: 'members' }]),
      scim.patch(`/Groups/${adminGroupId}`, [{ op: 'replace', path: 'members', value: [{ value: user.id }] }]),
      scim.put(`/Groups/${adminGroupId}`, { displayName: 'admin', members: [{ value: user.id }] }),
    ]
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403)
      expect(res.json.schemas).toEqual([SCIM_ERROR])
    }
    const members = (await scim.get(`/Groups/${adminGroupId}`)).json.members.map((m: { value: string }) => m.value)
    expect(members).toContain(String(adminId))
    expect(members).not.toContain(user.id)
  })

  it('refuses renaming or deleting built-in groups', async () => {
    expect((await scim.patch(`/Groups/${adminGroupId}`, [{ op: 'replace', path: 'displayName', value: 'not-admin' }])).status).toBe(400)
    expect((await scim.delete(`/Groups/${adminGroupId}`)).status).toBe(400)
  })

  it('refuses changing an admin’s e-mail (which would hand their account to whoever owns the new address)', async () => {
    const res = await scim.patch(`/Users/${adminId}`, [{ op: 'replace', path: 'userName', value: 'attacker@evil.example' }])
    expect(res.status).toBe(403)
    expect((await scim.get(`/Users/${adminId}`)).json.userName).toBe('second@example.com')
  })
})

describe('a token revoked mid-sync', () => {
  it('is refused from the next request on, and nothing more is created', async () => {
    expect((await scim.post('/Users', { userName: 'sync1@example.com' })).status).toBe(201)
    expect((await scim.post('/Users', { userName: 'sync2@example.com' })).status).toBe(201)
    expect((await admin.request('DELETE', '/api/scim/token')).status).toBe(204)
    const refused = await scim.post('/Users', { userName: 'sync3@example.com' })
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ schemas: [SCIM_ERROR], status: '401' })
    expect(await t.db.sql`select 1 from users where email = 'sync3@example.com'`).toHaveLength(0)
    const [event] = await t.db.sql`select user_id from events where action = 'delete' and object_type = 'scim_token'`
    expect(event).toBeDefined()
  })

  it('a new token replaces the old one', async () => {
    const first = (await (await admin.request('POST', '/api/scim/token')).json()).token
    const second = (await (await admin.request('POST', '/api/scim/token')).json()).token
    expect((await new ScimClient(t.app, first).get('/Users')).status).toBe(401)
    expect((await new ScimClient(t.app, second).get('/Users')).status).toBe(200)
  })
})
