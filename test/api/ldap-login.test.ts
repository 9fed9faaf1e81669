import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LdapSettings } from '../../src/config.ts'
import { freePort } from '../../src/db/index.ts'
import { ADMIN, addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { PEOPLE_DN, ROOT_DN, ROOT_PASSWORD, startSlapd, type Slapd } from '../helpers/slapd.ts'

// Sign-in through a real directory (Debian's slapd): the established tool's /ldap/login, its settings and its rule
// that password login may be switched off only while another method is on.

const INCORRECT = 'Incorrect credentials.'
const TOOLTIP = 'Password login can be disabled only if another login method is enabled.'

let slapd: Slapd
let t: TestApp
let admin: Client

function ldapSettings(url: string): LdapSettings {
  return {
    url, useSsl: false, startTls: false, bindDn: ROOT_DN, bindPassword: ROOT_PASSWORD, searchDn: PEOPLE_DN,
    searchTemplate: '(cn=%(username)s)', displayNameKey: 'displayName', emailKey: 'mail',
  }
}

beforeAll(async () => {
  slapd = await startSlapd([
    { cn: 'alice', password: 'alice-directory-pw', mail: 'Alice@Example.com', displayName: 'Alice Anders' },
    { cn: 'administrator', password: 'admin-directory-pw', mail: 'root@example.com', displayName: 'Directory Admin' },
    { cn: 'dora', password: 'dora-directory-pw', mail: 'dora@example.com', displayName: 'Dora Directory' },
    { cn: 'erin', password: 'erin-directory-pw', mail: 'erin@example.com', displayName: 'Erin E' },
  ])
  t = await createTestApp({ ldap: ldapSettings(slapd.url) })
  admin = await setUp(t.app)
  await addUser(t, { name: 'Dora Disabled', email: 'dora@example.com', password: 'dora-sightline-pw', disabled: true })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await slapd?.stop()
})

const ldapSignIn = (client: Client, email: string, password: string) => client.request('POST', '/ldap/login', { form: { email, password } })
const userCount = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from users`)[0].n

describe('LDAP sign-in', () => {
  it('shows its own form at /ldap/login, linked from the login page', async () => {
    const page = await new Client(t.app).get('/ldap/login')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Login to Sightline with LDAP')
    expect(html).toMatch(/name="email"/)
    expect(html).toMatch(/name="password"/)
    expect(await (await new Client(t.app).get('/login')).text()).toContain('href="/ldap/login"')
  })

  it('creates the user on first sign-in, in the default group, and signs them in', async () => {
    const client = new Client(t.app)
    const res = await ldapSignIn(client, 'alice', 'alice-directory-pw')
    expect(res.status).toBe(302)
    const session = await (await client.get('/api/session')).json()
    expect(session.user).toMatchObject({ name: 'Alice Anders', email: 'alice@example.com' })
    const [user] = await t.db.sql`
      select u.password_hash, u.is_invitation_pending, array(select g.name from user_groups ug join groups g on g.id = ug.group_id
        where ug.user_id = u.id) as groups from users u where u.email = 'alice@example.com'`
    expect(user).toMatchObject({ password_hash: null, is_invitation_pending: false, groups: ['default'] })
    const [event] = await t.db.sql`select additional_properties as properties from events where action = 'login' order by id desc limit 1`
    expect(event.properties.method).toBe('ldap')
  })

  it('signs the same person in again as the same user', async () => {
    const before = await userCount()
    expect((await ldapSignIn(new Client(t.app), 'alice', 'alice-directory-pw')).status).toBe(302)
    expect(await userCount()).toBe(before)
  })

  it('refuses a wrong password with "Incorrect credentials." and records the failure', async () => {
    const before = await userCount()
    const res = await ldapSignIn(new Client(t.app), 'erin', 'not-her-password')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(INCORRECT)
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))).toBe(false)
    expect(await userCount()).toBe(before)
    const [event] = await t.db.sql`select additional_properties as properties from events where action = 'login_failed' order by id desc limit 1`
    expect(event.properties).toMatchObject({ method: 'ldap', reason: 'credentials' })
  })

  it('refuses an empty password, which a directory could take for an unauthenticated bind', async () => {
    const res = await ldapSignIn(new Client(t.app), 'erin', '')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(INCORRECT)
  })

  it('finds nobody for a user name with filter syntax in it', async () => {
    const before = await userCount()
    for (const username of ['admin*', '*)(cn=*', '*']) {
      const res = await ldapSignIn(new Client(t.app), username, 'admin-directory-pw')
      expect(res.status, username).toBe(200)
      expect(await res.text()).toContain(INCORRECT)
    }
    expect(await userCount()).toBe(before)
  })

  it('refuses a user disabled in Sightline, whatever the directory says', async () => {
    const res = await ldapSignIn(new Client(t.app), 'dora', 'dora-directory-pw')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(INCORRECT)
    const [{ n }] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from sessions s join users u on u.id = s.user_id
      where u.email = 'dora@example.com'`
    expect(n).toBe(0)
  })

  it('says LDAP login is on in the client configuration', async () => {
    const res = await new Client(t.app).get('/api/config')
    expect((await res.json()).client_config.ldapLoginEnabled).toBe(true)
  })
})

describe('password login while LDAP is on', () => {
  it('may be switched off, and then only LDAP signs people in', async () => {
    const page = await (await admin.get('/settings/general')).text()
    expect(page).toMatch(/<input id="org-password-login"/)
    expect(page).not.toMatch(/<input id="org-password-login"[^>]*\sdisabled=""/)
    const res = await admin.post('/api/settings/organization', { auth_password_login_enabled: false })
    expect(res.status).toBe(200)
    expect((await res.json()).settings.auth_password_login_enabled).toBe(false)
    const { res: passwordRes } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    expect(await passwordRes.text()).toContain('Password login is not enabled for your organization.')
    expect((await ldapSignIn(new Client(t.app), 'alice', 'alice-directory-pw')).status).toBe(302)
  })

  it('is on again when LDAP is switched off in the environment', async () => {
    const withoutLdap = await createTestApp({ ldap: undefined }, { db: t.db })
    try {
      const { res } = await signInAs(withoutLdap.app, ADMIN.email, ADMIN.password)
      expect(res.status).toBe(302)
      const client = new Client(withoutLdap.app)
      expect((await client.get('/ldap/login')).headers.get('location')).toBe('/login')
      expect((await (await client.get('/api/config')).json()).client_config.ldapLoginEnabled).toBe(false)
      const { client: adminClient } = await signInAs(withoutLdap.app, ADMIN.email, ADMIN.password)
      const page = await (await adminClient.get('/settings/general')).text()
      expect(page).toMatch(/<input id="org-password-login"[^>]*\sdisabled=""/)
      expect(page).toContain(TOOLTIP)
      const refused = await adminClient.post('/api/settings/organization', { auth_password_login_enabled: false })
      expect(refused.status).toBe(400)
      expect((await refused.json()).message).toBe(TOOLTIP)
    } finally {
      await withoutLdap.deps.bus.stop()
      await withoutLdap.deps.executionsDone.stop()
    }
  })
})

describe('a directory that cannot be reached', () => {
  let down: TestApp
  beforeAll(async () => {
    // a port nothing listens on
    down = await createTestApp({ ldap: ldapSettings(`ldap://127.0.0.1:${await freePort()}`) })
    await setUp(down.app)
  })
  afterAll(() => down?.close())

  it('answers 503 saying LDAP sign-in is unavailable, and creates nobody', async () => {
    const before = (await down.db.sql<{ n: number }[]>`select count(*)::int as n from users`)[0].n
    const res = await ldapSignIn(new Client(down.app), 'alice', 'alice-directory-pw')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBeTruthy()
    expect(await res.text()).toContain('LDAP sign-in is unavailable right now')
    expect((await down.db.sql<{ n: number }[]>`select count(*)::int as n from users`)[0].n).toBe(before)
  })

  it('answers API clients with JSON', async () => {
    const res = await new Client(down.app).request('POST', '/ldap/login', {
      form: { email: 'alice', password: 'alice-directory-pw' }, headers: { accept: 'application/json' } })
    expect(res.status).toBe(503)
    expect((await res.json()).message).toMatch(/LDAP sign-in is unavailable/)
  })
})
