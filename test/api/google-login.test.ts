import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { startOidcProvider, walkProvider, type TestProvider } from '../helpers/oidc-provider.ts'

// Google sign-in at the established tool's addresses, against the test provider posing as Google's issuer
// (SIGHTLINE_GOOGLE_ISSUER_URL): new users only of the listed domains (the `hd` claim), existing users of any domain.

let google: TestProvider
let t: TestApp
let admin: Client

beforeAll(async () => {
  google = await startOidcProvider({
    clients: [{ client_id: 'google-client', client_secret: 'google-secret', redirect_uris: ['http://localhost/oauth/google_callback'] }],
    users: {
      newcomer: { email: 'newcomer@corp.example', email_verified: true, name: 'New Comer', hd: 'corp.example' },
      stranger: { email: 'stranger@elsewhere.example', email_verified: true, name: 'Stranger', hd: 'elsewhere.example' },
      consumer: { email: 'someone@corp.example', email_verified: true, name: 'No Workspace' },
      guest: { email: 'guest@elsewhere.example', email_verified: true, name: 'Guest', hd: 'elsewhere.example' },
    },
  })
  t = await createTestApp({ google: { clientId: 'google-client', clientSecret: 'google-secret', issuerUrl: google.issuer } })
  admin = await setUp(t.app)
  await addUser(t, { name: 'Guest', email: 'guest@elsewhere.example', password: 'guest-password' })
  expect((await admin.post('/api/settings/organization', { auth_google_apps_domains: ['corp.example'] })).status).toBe(200)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await google?.stop()
})

async function googleSignIn(client: Client, account: string) {
  google.autoLogin = account
  const res = await client.get('/oauth/google')
  expect(res.status).toBe(302)
  const url = new URL(res.headers.get('location')!)
  expect(url.searchParams.get('redirect_uri')).toBe('http://localhost/oauth/google_callback')
  const back = await walkProvider(url.href, 'http://localhost/')
  return client.get(back.pathname + back.search)
}
const userCount = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from users`)[0].n
const lastFailure = async () => (await t.db.sql`
  select additional_properties as p from events where action = 'login_failed' order by id desc limit 1`)[0]?.p

describe('Google sign-in', () => {
  it('creates a new user of a listed domain in the default group', async () => {
    const client = new Client(t.app)
    const first = await googleSignIn(client, "newcomer")
    expect(first.status, await first.clone().text()).toBe(302)
    expect((await (await client.get('/api/session')).json()).user.email).toBe('newcomer@corp.example')
    const [event] = await t.db.sql`select additional_properties as p from events where action = 'login' order by id desc limit 1`
    expect(event.p).toMatchObject({ method: 'google', created: true })
  })

  it('refuses a new user of an unlisted domain with a clear message, creating nobody', async () => {
    const before = await userCount()
    const res = await googleSignIn(new Client(t.app), 'stranger')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain("domain is not one of this organization")
    expect(await userCount()).toBe(before)
    expect(await lastFailure()).toMatchObject({ method: 'google', reason: 'domain_not_allowed' })
  })

  it('refuses a new user without a Workspace domain (no hd claim), whatever the address says', async () => {
    const before = await userCount()
    expect((await googleSignIn(new Client(t.app), 'consumer')).status).toBe(403)
    expect(await userCount()).toBe(before)
  })

  it('lets an existing user of any domain sign in', async () => {
    const client = new Client(t.app)
    expect((await googleSignIn(client, 'guest')).status).toBe(302)
    expect((await (await client.get('/api/session')).json()).user.email).toBe('guest@elsewhere.example')
  })

  it('is on in the client configuration, with a button on the login page', async () => {
    expect((await (await new Client(t.app).get('/api/config')).json()).client_config.googleLoginEnabled).toBe(true)
    const page = await (await new Client(t.app).get('/login?next=%2Fqueries')).text()
    expect(page).toContain('href="/oauth/google?next=%2Fqueries"')
  })

  it('counts as another login method: password login may then be switched off', async () => {
    const res = await admin.post('/api/settings/organization', { auth_password_login_enabled: false })
    expect(res.status).toBe(200)
    expect((await res.json()).settings.auth_password_login_enabled).toBe(false)
    expect((await admin.post('/api/settings/organization', { auth_password_login_enabled: true })).status).toBe(200)
  })
})

describe('password login without another method', () => {
  it('cannot be switched off, and OpenID Connect switched on makes it possible', async () => {
    const plain = await createTestApp({ google: undefined }, { db: t.db })
    try {
      const { signInAs, ADMIN } = await import('../helpers/app.ts')
      const { client } = await signInAs(plain.app, ADMIN.email, ADMIN.password)
      expect((await client.post('/api/settings/organization', { auth_password_login_enabled: false })).status).toBe(400)
      const on = await client.post('/api/settings/organization', {
        auth_oidc_enabled: true, auth_oidc_issuer_url: google.issuer, auth_oidc_client_id: 'google-client',
      })
      expect(on.status).toBe(200)
      expect((await client.post('/api/settings/organization', { auth_password_login_enabled: false })).status).toBe(200)
      await client.post('/api/settings/organization', { auth_password_login_enabled: true, auth_oidc_enabled: false })
    } finally {
      await plain.deps.bus.stop()
    }
  })
})
