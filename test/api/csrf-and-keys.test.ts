import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
let bo: { id: number; apiKey: string }
beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  bo = await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
})
afterAll(() => t.close())

const consent = { beacon_consent: false }

describe('CSRF (spec 1 §9)', () => {
  it('refuses an unsafe cookie-authenticated call without X-CSRF-TOKEN with a 400 that mentions CSRF', async () => {
    const res = await admin.request('POST', '/api/settings/organization', { json: consent, csrf: false })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain('CSRF')
  })

  it('refuses a token that does not belong to this session', async () => {
    const { client: other } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    const res = await admin.request('POST', '/api/settings/organization', { json: consent, csrf: false, headers: { 'x-csrf-token': other.csrf } })
    expect(res.status).toBe(400)
  })

  it('accepts the header that matches the csrf_token cookie', async () => {
    const res = await admin.request('POST', '/api/settings/organization', { json: consent })
    expect(res.status).toBe(200)
  })

  it('needs no token for calls made with an API key', async () => {
    const { api_key } = await (await admin.get('/api/users/1')).json()
    const res = await t.app.request('/api/settings/organization', {
      method: 'POST', headers: { authorization: `Key ${api_key}`, 'content-type': 'application/json' }, body: JSON.stringify(consent),
    })
    expect(res.status).toBe(200)
  })
})

describe('API keys', () => {
  it('authenticates with "Authorization: Key <key>" and with ?api_key=', async () => {
    const byHeader = await t.app.request('/api/session', { headers: { authorization: `Key ${bo.apiKey}` } })
    expect((await byHeader.json()).user.email).toBe('bo@example.com')
    const byQuery = await t.app.request(`/api/session?api_key=${bo.apiKey}`)
    expect((await byQuery.json()).user.id).toBe(bo.id)
  })

  it('answers 401 for an unknown key', async () => {
    const res = await t.app.request('/api/session', { headers: { authorization: 'Key nope' } })
    expect(res.status).toBe(401)
  })

  it('shows a user their own key, and admins anyone\'s, but not other users', async () => {
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    expect((await (await client.get(`/api/users/${bo.id}`)).json()).api_key).toBe(bo.apiKey)
    const adminView = await (await admin.get(`/api/users/${bo.id}`)).json()
    expect(adminView.api_key).toBe(bo.apiKey)
    const boView = await (await client.get('/api/users/1')).json()
    expect(boView).not.toHaveProperty('api_key')
    expect(boView).toMatchObject({ id: 1, is_disabled: false, groups: [{ id: 1, name: 'admin' }, { id: 2, name: 'default' }] })
  })

  it('regenerating a key stops the old one at once and the new one works', async () => {
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    expect((await t.app.request(`/api/session?api_key=${bo.apiKey}`)).status).toBe(200) // cached now
    const res = await client.post(`/api/users/${bo.id}/regenerate_api_key`)
    expect(res.status).toBe(200)
    const { api_key } = await res.json()
    expect(api_key).toMatch(/^[A-Za-z0-9]{40}$/)
    expect((await t.app.request(`/api/session?api_key=${bo.apiKey}`)).status).toBe(401)
    expect((await t.app.request(`/api/session?api_key=${api_key}`)).status).toBe(200)
    bo.apiKey = api_key
  })

  it('lets only the owner or an admin regenerate a key', async () => {
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    const res = await client.post('/api/users/1/regenerate_api_key')
    expect(res.status).toBe(403)
    expect((await res.json()).message).toBe("You don't have permission to edit this resource.")
  })

  it('stops a disabled user\'s key and sessions', async () => {
    const dee = await addUser(t, { name: 'Dee', email: 'dee@example.com', password: 'dee-password' })
    const { client } = await signInAs(t.app, 'dee@example.com', 'dee-password')
    expect((await client.get('/api/session')).status).toBe(200)
    expect((await t.app.request(`/api/session?api_key=${dee.apiKey}`)).status).toBe(200)
    await t.db.sql`update users set disabled_at = now() where id = ${dee.id}`
    await t.deps.bus.invalidate('user', dee.id)
    expect((await client.get('/api/session')).status).toBe(401)
    expect((await t.app.request(`/api/session?api_key=${dee.apiKey}`)).status).toBe(401)
  })
})
