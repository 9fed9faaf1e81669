import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forgetSamlMetadata } from '../../src/sign-in/index.ts'
import { ADMIN, addUser, Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { answerTo, beginSaml, configureSaml, hasSessionCookie, postResponse } from '../helpers/saml-flow.ts'
import { TestIdp } from '../helpers/saml-idp.ts'

// SAML 2.0 sign-in against a provider that signs real assertions: the established tool's addresses, users created on
// first sign-in, groups from the groups attribute, static and metadata-driven settings.

let t: TestApp
let admin: Client
let idp: TestIdp

beforeAll(async () => {
  idp = await new TestIdp().start()
  t = await createTestApp()
  admin = await setUp(t.app)
  for (const name of ['analysts', 'writers']) expect((await admin.request('POST', '/api/groups', { json: { name } })).status).toBe(200)
  await configureSaml(admin, idp)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await idp?.stop()
})

const groupsOf = async (email: string) => (await t.db.sql<{ name: string }[]>`
  select g.name from users u join user_groups ug on ug.user_id = u.id join groups g on g.id = ug.group_id
  where u.email = ${email} order by g.name`).map((r) => r.name)

describe('SAML sign-in', () => {
  it('offers a SAML button on the login page and says so in client_config', async () => {
    const html = await (await new Client(t.app).get('/login?next=%2Fqueries')).text()
    expect(html).toContain('href="/saml/login?next=%2Fqueries"')
    expect(html).toContain('SAML Login')
    const config = await (await new Client(t.app).get('/api/config')).json()
    expect(config.client_config.samlLoginEnabled).toBe(true)
  })

  it('sends the browser to the provider with a request whose addresses come from the public origin, not the Host header', async () => {
    const res = await new Client(t.app).get('/saml/login', { host: 'evil.example', 'x-forwarded-host': 'evil.example' })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location')!)
    expect(location.origin + location.pathname).toBe(idp.ssoUrl)
    const { request } = await beginSaml(t)
    expect(request.acsUrl).toBe(`${ADMIN.base_url}/saml/callback`)
    expect(request.issuer).toBe(`${ADMIN.base_url}/saml/metadata`)
  })

  it('describes itself at /saml/metadata, built on the public origin', async () => {
    const res = await new Client(t.app).get('/saml/metadata', { host: 'evil.example' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml')
    const xml = await res.text()
    expect(xml).toContain(`entityID="${ADMIN.base_url}/saml/metadata"`)
    expect(xml).toContain(`Location="${ADMIN.base_url}/saml/callback"`)
    expect(xml).not.toContain('evil.example')
  })

  it('creates the user on first sign-in, in default and the groups the provider names, and follows RelayState', async () => {
    const { client, request } = await beginSaml(t, undefined, '/queries')
    expect(request.relayState).toBe('/queries')
    const response = answerTo(idp, request, 'Sam@Example.com', {
      attributes: { FirstName: ['Sam'], LastName: ['Saml'], RedashGroups: ['analysts', 'ghosts'] },
    })
    const res = await postResponse(client, idp, response, request.relayState)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/queries')
    const session = await (await client.get('/api/session')).json()
    expect(session.user).toMatchObject({ name: 'Sam Saml', email: 'sam@example.com' })
    expect(await groupsOf('sam@example.com')).toEqual(['analysts', 'default'])
    // a group name Sightline does not have is ignored, never created
    expect(await t.db.sql`select 1 from groups where name = 'ghosts'`).toHaveLength(0)
    const events = await t.db.sql<{ action: string; properties: Record<string, unknown> }[]>`
      select action, additional_properties as properties from events
      where user_id = (select id from users where email = 'sam@example.com') order by id`
    expect(events.map((e) => e.action)).toEqual(['create', 'add_member', 'login'])
    expect(events[2].properties.method).toBe('saml')
  })

  it("replaces the user's groups with the provider's on each sign-in, keeping default", async () => {
    const { client, request } = await beginSaml(t)
    const res = await postResponse(client, idp, answerTo(idp, request, 'sam@example.com', { attributes: { RedashGroups: ['writers'] } }))
    expect(res.status).toBe(302)
    expect(await groupsOf('sam@example.com')).toEqual(['default', 'writers'])
    const changes = await t.db.sql<{ action: string }[]>`
      select action from events where action in ('add_member', 'remove_member') and additional_properties->>'method' = 'saml' order by id`
    expect(changes.map((e) => e.action)).toEqual(['add_member', 'add_member', 'remove_member'])
  })

  it('leaves groups alone when the assertion has no groups attribute', async () => {
    const { client, request } = await beginSaml(t)
    expect((await postResponse(client, idp, answerTo(idp, request, 'sam@example.com'))).status).toBe(302)
    expect(await groupsOf('sam@example.com')).toEqual(['default', 'writers'])
  })

  it('reads the groups from the attribute the settings name', async () => {
    await configureSaml(admin, idp, { extra: { auth_saml_groups_attribute: 'memberOf' } })
    const { client, request } = await beginSaml(t)
    const response = answerTo(idp, request, 'sam@example.com', { attributes: { memberOf: ['analysts'], RedashGroups: ['writers'] } })
    expect((await postResponse(client, idp, response)).status).toBe(302)
    expect(await groupsOf('sam@example.com')).toEqual(['analysts', 'default'])
    await configureSaml(admin, idp, { extra: { auth_saml_groups_attribute: 'RedashGroups' } })
  })

  it('signs an existing password user in as themself', async () => {
    const { id } = await addUser(t, { name: 'Paula Password', email: 'paula@example.com', password: 'paula-pw-123' })
    const { client, request } = await beginSaml(t)
    expect((await postResponse(client, idp, answerTo(idp, request, 'paula@example.com'))).status).toBe(302)
    expect((await (await client.get('/api/session')).json()).user.id).toBe(id)
  })

  it('refuses a disabled user, and records why', async () => {
    await addUser(t, { name: 'Dan Disabled', email: 'dan@example.com', password: 'dan-pw-12345', disabled: true })
    const { client, request } = await beginSaml(t)
    const res = await postResponse(client, idp, answerTo(idp, request, 'dan@example.com'))
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Your account is disabled.')
    expect(hasSessionCookie(res)).toBe(false)
    const [event] = await t.db.sql`select additional_properties as p from events where action = 'login_failed' order by id desc limit 1`
    expect(event.p).toMatchObject({ method: 'saml', reason: 'disabled' })
  })

  it('refuses an assertion without an e-mail address', async () => {
    const { client, request } = await beginSaml(t)
    const res = await postResponse(client, idp, answerTo(idp, request, 'just-a-name'))
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('did not say which e-mail address')
    expect(await t.db.sql`select 1 from users where email = 'just-a-name'`).toHaveLength(0)
  })

  it('takes the provider from its metadata address (dynamic), read once and kept', async () => {
    forgetSamlMetadata()
    const before = idp.metadataReads
    await configureSaml(admin, idp, { dynamic: true })
    for (const email of ['meta@example.com', 'meta@example.com']) {
      const { client, request } = await beginSaml(t)
      expect((await postResponse(client, idp, answerTo(idp, request, email))).status).toBe(302)
    }
    expect(idp.metadataReads - before).toBe(1)
  })

  it('refuses, in dynamic mode, an assertion from another provider than the metadata names', async () => {
    const other = new TestIdp('Other IdP')
    other.key = idp.key // the same key, another entity id: the issuer check alone must refuse it
    const { client, request } = await beginSaml(t)
    const res = await postResponse(client, idp, answerTo(other, request, 'meta@example.com'))
    expect(res.status).toBe(400)
  })

  it('answers 503 when the metadata address cannot be read and nothing was read before', async () => {
    forgetSamlMetadata()
    await configureSaml(admin, idp, { dynamic: true, extra: { auth_saml_metadata_url: `${idp.url}/missing` } })
    const res = await new Client(t.app).get('/saml/login')
    expect(res.status).toBe(503)
    await configureSaml(admin, idp)
  })

  it('sends people back to the login page when SAML is off', async () => {
    await admin.request('POST', '/api/settings/organization', { json: { auth_saml_enabled: false } })
    const res = await new Client(t.app).get('/saml/login')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login')
    expect((await (await new Client(t.app).get('/api/config')).json()).client_config.samlLoginEnabled).toBe(false)
    await configureSaml(admin, idp)
  })
})

describe('SAML and the password-login rule', () => {
  it('lets password login be switched off once SAML is on, and forces it back on when SAML goes off', async () => {
    const off = await admin.request('POST', '/api/settings/organization', { json: { auth_password_login_enabled: false } })
    expect(off.status).toBe(200)
    expect((await off.json()).settings.auth_password_login_enabled).toBe(false)
    const samlOff = await admin.request('POST', '/api/settings/organization', { json: { auth_saml_enabled: false } })
    expect((await samlOff.json()).settings.auth_password_login_enabled).toBe(true)
    await configureSaml(admin, idp, { extra: { auth_password_login_enabled: true } })
  })
})
