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
