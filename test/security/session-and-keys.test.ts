import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { sealLegacyKeys } from '../../src/seal-legacy-keys.ts'
import { migrate, readMigrations, connect } from '../../src/db/index.ts'
import { createDeps } from '../../src/create-deps.ts'
import { addUser, ADMIN, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { withDatabase } from '../helpers/global-setup.ts'

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
    const crossSite: Record<string, string>[] = [{ host: 'localhost', origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]
    for (const headers of crossSite) {
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

describe('API keys at rest', () => {
  /** Every row of the tables that hold API keys, as text: what a leaked copy of the database gives away. */
  const dump = async (sql = t.db.sql) => {
    const [{ text }] = await sql<{ text: string }[]>`
      select (select coalesce(string_agg(k::text, ' '), '') from api_keys k) || ' ' ||
             (select coalesce(string_agg(q::text, ' '), '') from queries q) as text`
    return text
  }

  it('no user key or query key is kept in plain text, and each still works and is shown to those who may see it', async () => {
    const { client } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    const { api_key: userKey } = await (await client.post(`/api/users/${bo.id}/regenerate_api_key`)).json()
    bo.apiKey = userKey
    const ds = await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()
    const query = await (await admin.post('/api/queries', { data_source_id: ds.id, name: 'Kept', query: 'select 1' })).json()
    const setupKey = (await (await admin.get('/api/users/1')).json()).api_key
    expect(setupKey).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(query.api_key).toMatch(/^[A-Za-z0-9]{40}$/)

    const leaked = await dump()
    for (const key of [userKey, setupKey, query.api_key]) expect(leaked).not.toContain(key)

    expect((await (await new Client(t.app).get('/api/session', { authorization: `Key ${userKey}` })).json()).user.id).toBe(bo.id)
    expect((await (await client.get(`/api/users/${bo.id}`)).json()).api_key).toBe(userKey)
    expect((await (await admin.get(`/api/users/${bo.id}`)).json()).api_key).toBe(userKey)
    const shared = await new Client(t.app).get(`/api/queries/${query.id}?api_key=${query.api_key}`)
    expect(shared.status).toBe(200)
    expect((await shared.json()).api_key).toBe(query.api_key)
    expect((await (await admin.get('/api/queries')).json()).results.find((q: { id: number }) => q.id === query.id).api_key).toBe(query.api_key)
  })

  it('with another SIGHTLINE_SECRET_KEY a key still works but can no longer be shown', async () => {
    const other = createApp(createDeps({ sql: t.db.sql, config: t.deps.config, secretKey: 'another-secret-key', assets: t.deps.assets, features: t.deps.features }))
    const res = await other.request(`/api/users/${bo.id}`, { headers: { authorization: `Key ${bo.apiKey}` } })
    expect(res.status).toBe(200)
    expect((await res.json()).api_key).toBeNull()
  })

  it('keys from before migration 0010 are hashed by it and sealed at the next start, and work and show as before', async () => {
    const adminUrl = inject('pgAdminUrl')
    const name = `t_keys_${process.pid}_${crypto.randomBytes(4).toString('hex')}`
    const root = connect(adminUrl, { max: 1 })
    await root.unsafe(`create database ${name}`)
    const sql = connect(withDatabase(adminUrl, name), { max: 2 })
    try {
      await migrate(sql, readMigrations().filter((m) => m.version < '0010'))
      const userKey = 'U'.repeat(20) + crypto.randomBytes(10).toString('hex')
      const oldKey = 'O'.repeat(20) + crypto.randomBytes(10).toString('hex')
      const queryKey = 'Q'.repeat(20) + crypto.randomBytes(10).toString('hex')
      const [org] = await sql<{ id: number }[]>`insert into organizations (name, slug) values ('Old', 'default') returning id`
      const [group] = await sql<{ id: number }[]>`
        insert into groups (org_id, type, name, permissions) values (${org.id}, 'builtin', 'admin', '{admin,view_query}') returning id`
      const [user] = await sql<{ id: number }[]>`insert into users (org_id, name, email) values (${org.id}, 'Olga', 'olga@old.example') returning id`
      await sql`insert into user_groups (user_id, group_id) values (${user.id}, ${group.id})`
      await sql`insert into api_keys (org_id, api_key, user_id, active) values (${org.id}, ${oldKey}, ${user.id}, false)`
      await sql`insert into api_keys (org_id, api_key, user_id) values (${org.id}, ${userKey}, ${user.id})`
      const [query] = await sql<{ id: number }[]>`
        insert into queries (org_id, user_id, api_key, query) values (${org.id}, ${user.id}, ${queryKey}, 'select 1') returning id`

      await migrate(sql)
      expect(await sealLegacyKeys(sql, t.deps.secretKey)).toBe(2) // the revoked key is not kept at all
      expect(await sealLegacyKeys(sql, t.deps.secretKey)).toBe(0)
      const leaked = await dump(sql)
      for (const key of [userKey, oldKey, queryKey]) expect(leaked).not.toContain(key)

      const app = createApp(createDeps({ sql, config: t.deps.config, secretKey: t.deps.secretKey, assets: t.deps.assets, features: t.deps.features }))
      const byKey = (path: string, key = userKey) => app.request(path, { headers: { authorization: `Key ${key}` } })
      const own = await byKey(`/api/users/${user.id}`)
      expect(own.status).toBe(200)
      expect((await own.json()).api_key).toBe(userKey)
      expect((await byKey('/api/session', oldKey)).status).toBe(401)
      const shared = await app.request(`/api/queries/${query.id}?api_key=${queryKey}`)
      expect(shared.status).toBe(200)
      expect((await shared.json()).api_key).toBe(queryKey)
    } finally {
      await sql.end({ timeout: 1 })
      await root.unsafe(`drop database if exists ${name} with (force)`)
      await root.end()
    }
  })
})
