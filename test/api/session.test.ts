import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, addUser, Client, createTestApp, setUp, signInAs, type Client as C, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: C
beforeAll(async () => {
  t = await createTestApp({ latestVersion: '99.0.0' })
  admin = await setUp(t.app)
})
afterAll(() => t.close())

describe('GET /api/session', () => {
  it('describes the user, the client configuration of spec 1 §3 and the messages', async () => {
    const body = await (await admin.get('/api/session')).json()
    expect(Object.keys(body.user).sort()).toEqual(['email', 'groups', 'id', 'name', 'permissions', 'profile_image_url'])
    expect(body.user.profile_image_url).toMatch(/^\/avatar\/[0-9a-f]{32}\.svg$/)
    expect(body.messages).toEqual([])
    expect(body.client_config).toMatchObject({
      version: '0.1.0',
      newVersionAvailable: true,
      showBeaconConsentMessage: true,
      dateFormat: 'DD/MM/YY',
      dateTimeFormat: 'DD/MM/YY HH:mm',
      dashboardRefreshIntervals: [60, 300, 600, 1800, 3600, 43200, 86400],
    })
    expect(body.client_config.queryRefreshIntervals).toContain(86400)
  })

  it('does not offer the beacon question to non-admins', async () => {
    await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    const body = await (await client.get('/api/session')).json()
    expect(body.client_config.showBeaconConsentMessage).toBe(false)
    expect(body.user.permissions).not.toContain('admin')
  })

  it('lists email-not-verified for users who have not verified their address', async () => {
    await t.db.sql`update users set is_email_verified = false where email = 'bo@example.com'`
    await t.deps.bus.invalidate('user', (await t.db.sql`select id from users where email = 'bo@example.com'`)[0].id)
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    expect((await (await client.get('/api/session')).json()).messages).toEqual(['email-not-verified'])
  })
})

describe('GET /api/config', () => {
  it('answers without a session, without version information', async () => {
    const res = await new Client(t.app).get('/api/config')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.org_slug).toBe('default')
    expect(body.client_config.dateFormat).toBe('DD/MM/YY')
    expect(body.client_config).not.toHaveProperty('version')
    expect(body.client_config.showBeaconConsentMessage).toBe(false)
  })
})

describe('GET /api/organization/status', () => {
  it('counts the objects of the organization, a new query included', async () => {
    const counters = async () => (await (await admin.get('/api/organization/status')).json()).object_counters
    expect(await counters()).toEqual({ users: 2, alerts: 0, data_sources: 1, queries: 0, dashboards: 0 }) // the Demo source
    const demo = (await (await admin.get('/api/data_sources')).json())[0].id
    expect((await admin.post('/api/queries', { data_source_id: demo, query: 'select 1' })).status).toBe(200)
    expect(await counters()).toEqual({ users: 2, alerts: 0, data_sources: 1, queries: 1, dashboards: 0 })
  })

  it('needs a signed-in caller', async () => {
    expect((await new Client(t.app).get('/api/organization/status')).status).toBe(401)
  })
})

describe('GET /ping', () => {
  it('answers PONG. and gives a signed-in browser a fresh csrf_token cookie', async () => {
    const { client } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    const good = client.csrf
    client.cookies.set('csrf_token', 'stale')
    const res = await client.get('/ping')
    expect(await res.text()).toBe('PONG.')
    expect(client.csrf).toBe(good)
  })
})
