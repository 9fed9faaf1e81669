import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, ADMIN, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Sessions and API keys under attack: a link or image signing people out, a link carrying someone else's key, a
 * leaked copy of the database.
 */

let t: TestApp
let admin: Client
let bo: { id: number; apiKey: string }

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  bo = await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
})
afterAll(() => t.close())

const signedIn = async (client: Client) => (await client.get('/api/session')).status === 200

describe('signing out', () => {
  it('a GET of /logout (a link, an image) signs nobody out: it answers a page with a form that posts, and no script', async () => {
    const { client } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    const res = await client.get('/logout')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toMatch(/<form action="\/logout" method="post">/)
    expect(html).toContain('>Log out</button>')
    expect(html).not.toContain('<script')
    expect(await signedIn(client)).toBe(true)
  })

  it('a POST signs out and revokes the session', async () => {
    const { client } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    const cookie = client.cookies.get('sightline_session')!
    const res = await client.request('POST', '/logout', { headers: { host: 'localhost', origin: 'http://localhost' } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login')
    const replay = new Client(t.app)
    replay.cookies.set('sightline_session', cookie)
    expect(await signedIn(replay)).toBe(false)
  })

  it('a post from another site is refused, and the session lives on', async () => {
    const { client } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    for (const headers of [{ host: 'localhost', origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const res = await client.request('POST', '/logout', { headers })
      expect(res.status).toBe(400)
    }
    expect(await signedIn(client)).toBe(true)
  })

  it('GET /logout without a session goes on to sign in, as before', async () => {
    const res = await new Client(t.app).get('/logout')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login')
  })

  it('the app shell offers "Log out" as a form that posts, never as a link to /logout', async () => {
    const html = await (await admin.get('/')).text()
    expect(html).not.toMatch(/href="\/logout"/)
    expect(html.match(/<form action="\/logout" method="post">/g)?.length).toBe(2) // the side menu and the phone menu
  })
})

describe('a session cookie and an API key in one request', () => {
  const adminKey = async () => (await (await admin.get('/api/users/1')).json()).api_key as string

  it('a signed-in browser that opens a link with someone else\'s ?api_key= stays itself', async () => {
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    const key = await adminKey()
    expect((await (await client.get(`/api/session?api_key=${key}`)).json()).user.id).toBe(bo.id)
    // pages too: the app does not turn into the admin's
    const page = await client.get(`/users/1?api_key=${key}`)
    expect(await page.text()).not.toContain(key)
  })

  it('an admin\'s browser is not moved to a lesser principal by a link with a user key', async () => {
    const res = await admin.get(`/api/session?api_key=${bo.apiKey}`)
    expect((await res.json()).user.id).toBe(1)
  })

  it('a key in the address does not spare a cookie-authenticated write its CSRF check', async () => {
    const key = await adminKey()
    const res = await admin.request('POST', `/api/settings/organization?api_key=${key}`, { json: { beacon_consent: false }, csrf: false })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain('CSRF')
  })

  it('without a live session the key decides, as before', async () => {
    const stale = new Client(t.app)
    stale.cookies.set('sightline_session', 'not-a-session')
    expect((await (await stale.get(`/api/session?api_key=${bo.apiKey}`)).json()).user.id).toBe(bo.id)
    expect((await (await new Client(t.app).get('/api/session', { authorization: `Key ${bo.apiKey}` })).json()).user.id).toBe(bo.id)
  })
})
