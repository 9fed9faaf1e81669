import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { addUser, Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { startOidcProvider, walkProvider, type TestProvider } from '../helpers/oidc-provider.ts'

// Sign-in through a real OpenID Connect provider (oidc-provider on 127.0.0.1): code flow with PKCE, state and nonce,
// the ID token verified against the provider's keys, users created or matched, groups synced on every sign-in.

const BACK = 'http://localhost/'
let provider: TestProvider
let t: TestApp
let admin: Client

beforeAll(async () => {
  provider = await startOidcProvider({
    clients: [
      { client_id: 'sightline', client_secret: 'sightline-secret', redirect_uris: ['http://localhost/oidc/callback'] },
      { client_id: 'other-app', client_secret: 'other-secret', redirect_uris: ['http://localhost/oidc/callback'] },
    ],
    users: {
      alice: { email: 'alice@corp.example', email_verified: true, name: 'Alice Provider', groups: ['analysts'] },
      bob: { email: 'bob@corp.example', email_verified: false, name: 'Bob Unverified' },
      carol: { name: 'Carol No Mail' },
      dora: { email: 'dora@corp.example', email_verified: true, name: 'Dora Disabled' },
      erin: { email: 'erin@corp.example', email_verified: true, name: 'Erin Existing' },
    },
  })
  t = await createTestApp({ identityProviderTimeoutMs: 1_000 })
  admin = await setUp(t.app)
  for (const name of ['Analysts', 'Finance', 'Untouched']) expect((await admin.post('/api/groups', { name })).status).toBe(200)
  await addUser(t, { name: 'Bob Password', email: 'bob@corp.example', password: 'bob-sightline-pw' })
  await addUser(t, { name: 'Dora', email: 'dora@corp.example', password: 'dora-sightline-pw', disabled: true })
  await addUser(t, { name: 'Erin', email: 'erin@corp.example', password: 'erin-sightline-pw' })
  const res = await admin.post('/api/settings/organization', {
    auth_oidc_enabled: true, auth_oidc_issuer_url: provider.issuer, auth_oidc_client_id: 'sightline',
    auth_oidc_client_secret: 'sightline-secret', auth_oidc_button_label: 'Log in with Corp SSO',
    auth_oidc_group_mappings: { analysts: 'Analysts', finance: 'Finance', ghosts: 'No Such Group' },
  })
  expect(res.status).toBe(200)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await provider?.stop()
})

/** Start at /oidc/login, sign in at the provider as `account`, and come back to the callback. */
async function oidcSignIn(client: Client, account: string, start = '/oidc/login') {
  provider.autoLogin = account
  const res = await client.get(start)
  expect(res.status, await res.clone().text()).toBe(302)
  const back = await walkProvider(res.headers.get('location')!, BACK)
  return client.get(back.pathname + back.search)
}

const groupsOf = async (email: string) => (await t.db.sql<{ name: string }[]>`
  select g.name from user_groups ug join groups g on g.id = ug.group_id join users u on u.id = ug.user_id
  where u.email = ${email}`).map((r) => r.name).sort()
const lastEvent = async (action: string) => (await t.db.sql`
  select additional_properties as p, user_id from events where action = ${action} order by id desc limit 1`)[0]
const userCount = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from users`)[0].n

describe('OpenID Connect sign-in', () => {
  it('keeps the client secret write-only: masked when read, sealed at rest, kept when the mask is sent back', async () => {
    const read = await (await admin.get('/api/settings/organization')).json()
    expect(read.settings.auth_oidc_client_secret).toBe('--------')
    expect((await admin.post('/api/settings/organization', { auth_oidc_client_secret: '--------' })).status).toBe(200)
    const [{ secret }] = await t.db.sql`select settings->>'auth_oidc_client_secret' as secret from organizations`
    expect(secret).toMatch(/^s1:/)
    expect(secret).not.toContain('sightline-secret')
    const [edit] = await t.db.sql`select additional_properties as p from events where object_type = 'settings' order by id limit 1`
    expect(JSON.stringify(edit.p)).not.toContain('sightline-secret')
  })

  it('shows the OpenID Connect fields and the audit retention on the General settings page, never the secret', async () => {
    const page = await (await admin.get('/settings/general')).text()
    for (const id of ['org-oidc-enabled', 'org-oidc-issuer', 'org-oidc-client-secret', 'org-oidc-group-mappings', 'org-jwt-enabled', 'org-audit-retention']) {
      expect(page, id).toContain(`id="${id}"`)
    }
    expect(page).not.toContain('sightline-secret')
    expect((await admin.post('/api/settings/organization', { audit_log_retention_days: 90 })).status).toBe(200)
    expect((await admin.post('/api/settings/organization', { audit_log_retention_days: -1 })).status).toBe(400)
  })

  it('refuses settings that cannot work, with a message', async () => {
    for (const body of [
      { auth_oidc_issuer_url: 'http://idp.example.com' },
      { auth_oidc_issuer_url: 'not a url' },
      { auth_oidc_group_mappings: ['analysts'] },
      { auth_oidc_group_mappings: { analysts: 42 } },
      { auth_oidc_enabled: true, auth_oidc_client_id: '' },
    ]) {
      const res = await admin.post('/api/settings/organization', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(typeof (await res.json()).message).toBe('string')
    }
  })

  it('sends the browser to the provider with PKCE, state, nonce and a redirect address on the public origin', async () => {
    const res = await new Client(t.app).get('/oidc/login', { host: 'evil.example', 'x-forwarded-host': 'evil.example' })
    const url = new URL(res.headers.get('location')!)
    expect(url.origin).toBe(provider.issuer)
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost/oidc/callback')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('state')).toBeTruthy()
    expect(url.searchParams.get('nonce')).toBeTruthy()
    expect(url.searchParams.get('client_id')).toBe('sightline')
  })

  it('creates the user on first sign-in in the default group plus the mapped groups, and records it', async () => {
    const client = new Client(t.app)
    const res = await oidcSignIn(client, 'alice')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    const session = await (await client.get('/api/session')).json()
    expect(session.user).toMatchObject({ name: 'Alice Provider', email: 'alice@corp.example' })
    expect(await groupsOf('alice@corp.example')).toEqual(['Analysts', 'default'])
    const login = await lastEvent('login')
    expect(login.p).toMatchObject({ method: 'oidc', created: true, groups_added: ['Analysts'] })
  })

  it('syncs the mapped groups on every sign-in: adds, removes, leaves others alone', async () => {
    const [{ id }] = await t.db.sql`select id from users where email = 'alice@corp.example'`
    const [untouched] = await t.db.sql`select id from groups where name = 'Untouched'`
    await t.db.sql`insert into user_groups (user_id, group_id) values (${id}, ${untouched.id})`
    provider.users.get('alice')!.groups = ['finance', 'somewhere-else']
    expect((await oidcSignIn(new Client(t.app), 'alice')).status).toBe(302)
    expect(await groupsOf('alice@corp.example')).toEqual(['Finance', 'Untouched', 'default'])
    const sync = await lastEvent('sync_groups')
    expect(sync.p).toMatchObject({ method: 'oidc', added: ['Finance'], removed: ['Analysts'] })
  })

  it('changes no group when the groups claim is missing', async () => {
    delete provider.users.get('alice')!.groups
    const before = await userCount()
    expect((await oidcSignIn(new Client(t.app), 'alice')).status).toBe(302)
    expect(await groupsOf('alice@corp.example')).toEqual(['Finance', 'Untouched', 'default'])
    expect(await userCount()).toBe(before)
  })

  it('does not link an existing account to an unverified e-mail', async () => {
    const res = await oidcSignIn(new Client(t.app), 'bob')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('did not confirm that the address is yours')
    expect((await lastEvent('login_failed')).p).toMatchObject({ method: 'oidc', reason: 'email_not_verified' })
    const [{ n }] = await t.db.sql`select count(*)::int as n from external_identities`
    expect(n).toBe(1)
  })

  it('links an existing account when the provider verified the e-mail', async () => {
    const client = new Client(t.app)
    expect((await oidcSignIn(client, 'erin')).status).toBe(302)
    expect((await (await client.get('/api/session')).json()).user.email).toBe('erin@corp.example')
  })

  it('refuses a missing e-mail claim, creating nobody', async () => {
    const before = await userCount()
    const res = await oidcSignIn(new Client(t.app), 'carol')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('did not send an e-mail address')
    expect(await userCount()).toBe(before)
    expect((await lastEvent('login_failed')).p).toMatchObject({ method: 'oidc', reason: 'missing_email' })
  })

  it('refuses a disabled user', async () => {
    const res = await oidcSignIn(new Client(t.app), 'dora')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('disabled')
    expect((await lastEvent('login_failed')).p).toMatchObject({ reason: 'disabled' })
  })

  it('refuses an ID token issued for another client, signed with the provider key', async () => {
    provider.forgeAudience = 'other-app'
    try {
      const client = new Client(t.app)
      const res = await oidcSignIn(client, 'alice')
      expect(res.status).toBe(403)
      expect(await res.text()).toContain("answer was refused")
      expect(client.cookies.has('sightline_session')).toBe(false)
      expect((await lastEvent('login_failed')).p).toMatchObject({ method: 'oidc', reason: 'token_refused' })
    } finally {
      provider.forgeAudience = undefined
    }
  })

  it('refuses a code obtained by another client', async () => {
    const client = new Client(t.app)
    const start = await client.get('/oidc/login')
    const url = new URL(start.headers.get('location')!)
    url.searchParams.set('client_id', 'other-app')
    provider.autoLogin = 'alice'
    const back = await walkProvider(url.href, BACK)
    const res = await client.get(back.pathname + back.search)
    expect(res.status).toBe(403)
    expect(client.cookies.has('sightline_session')).toBe(false)
  })

  it('says OpenID Connect is on, with its label, in the client configuration and on the login page', async () => {
    const config = (await (await new Client(t.app).get('/api/config')).json()).client_config
    expect(config).toMatchObject({ oidcLoginEnabled: true, oidcButtonLabel: 'Log in with Corp SSO' })
    const page = await (await new Client(t.app).get('/login')).text()
    expect(page).toContain('href="/oidc/login"')
    expect(page).toContain('Log in with Corp SSO')
  })
})

describe('a provider that is down, slow or answers garbage', () => {
  async function withIssuer(issuer: string) {
    const other = await createTestApp({ identityProviderTimeoutMs: 300 }, { db: t.db })
    await t.db.sql`update organizations set settings = settings || ${t.db.sql.json({ auth_oidc_issuer_url: issuer })}`
    return other
  }
  async function expectUnavailable(issuer: string, detail: RegExp) {
    const other = await withIssuer(issuer)
    try {
      const res = await new Client(other.app).get('/oidc/login')
      expect(res.status).toBe(503)
      const html = await res.text()
      expect(html).toContain('The identity provider cannot be reached right now')
      expect(html).toMatch(detail)
      expect((await lastEvent('login_failed')).p).toMatchObject({ method: 'oidc', reason: 'provider_unavailable' })
    } finally {
      await t.db.sql`update organizations set settings = settings || ${t.db.sql.json({ auth_oidc_issuer_url: provider.issuer })}`
      await other.deps.bus.stop()
    }
  }

  it('down: a clear error', async () => {
    await expectUnavailable(`http://127.0.0.1:${await freePort()}`, /ECONNREFUSED|fetch failed/)
  })

  it('slow: gives up after the timeout with a clear error', async () => {
    const silent = http.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      await expectUnavailable(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, /did not answer in time/)
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })

  it('garbage: a clear error', async () => {
    const garbage = http.createServer((_req, res) => res.end('<html>not a discovery document'))
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve))
    try {
      await expectUnavailable(`http://127.0.0.1:${(garbage.address() as AddressInfo).port}`, /unexpected response content-type/)
    } finally {
      garbage.closeAllConnections()
      garbage.close()
    }
  })
})
