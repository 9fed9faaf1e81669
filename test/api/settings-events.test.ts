import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
let user: Client
beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  user = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
})
afterAll(() => t.close())

describe('organization settings', () => {
  it('shows every setting of spec 3 §3 with its default', async () => {
    const { settings } = await (await admin.get('/api/settings/organization')).json()
    expect(settings).toMatchObject({
      date_format: 'DD/MM/YY', time_format: 'HH:mm', hide_plotly_mode_bar: false, feature_show_permissions_control: false,
      send_email_on_failed_scheduled_queries: false, multi_byte_search_enabled: false, beacon_consent: null,
      auth_password_login_enabled: true, auth_google_apps_domains: [], auth_saml_enabled: false, auth_saml_type: 'static',
      auth_saml_sso_url: '', auth_saml_entity_id: '', auth_saml_x509_cert: '', auth_saml_metadata_url: '', auth_saml_nameid_format: '',
      auth_saml_groups_attribute: 'RedashGroups',
    })
  })

  it('is for admins only', async () => {
    expect((await user.get('/api/settings/organization')).status).toBe(403)
    expect((await user.post('/api/settings/organization', { date_format: 'YYYY-MM-DD' })).status).toBe(403)
    expect((await new Client(t.app).get('/api/settings/organization')).status).toBe(401)
  })

  it('saves a change, answers with all settings, and the session sees it at once', async () => {
    const res = await admin.post('/api/settings/organization', { date_format: 'YYYY-MM-DD', time_format: 'HH:mm:ss' })
    expect(res.status).toBe(200)
    expect((await res.json()).settings).toMatchObject({ date_format: 'YYYY-MM-DD', time_format: 'HH:mm:ss', null_value: 'null' })
    const session = await (await user.get('/api/session')).json()
    expect(session.client_config.dateTimeFormat).toBe('YYYY-MM-DD HH:mm:ss')
  })

  it('records the change with old and new values in the audit log', async () => {
    const [event] = await t.db.sql`select * from events where object_type = 'settings' order by id desc limit 1`
    expect(event.action).toBe('edit')
    expect(event.additional_properties.new_values).toEqual({ date_format: 'YYYY-MM-DD', time_format: 'HH:mm:ss' })
    expect(event.additional_properties.previous_values).toEqual({ date_format: 'DD/MM/YY', time_format: 'HH:mm' })
  })

  it.each([
    [{ nonsense: true }, 'Unknown field: nonsense.'],
    [{ date_format: 'every tuesday' }, 'date_format'],
    [{ beacon_consent: 'yes' }, 'beacon_consent'],
    [{ auth_google_apps_domains: 'example.com' }, 'auth_google_apps_domains'],
    [[1, 2], 'Settings must be an object.'],
  ])('refuses %j with a 400 that says what is wrong', async (body, text) => {
    const res = await admin.post('/api/settings/organization', body)
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain(text)
  })

  it('refuses a body that is not JSON', async () => {
    const res = await admin.request('POST', '/api/settings/organization', { headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('The request body must be JSON.')
  })

  it('keeps password login on while no other login method is enabled (spec 3 §5)', async () => {
    const res = await admin.post('/api/settings/organization', { auth_password_login_enabled: false })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Password login can be disabled only if another login method is enabled.')
    expect((await (await admin.get('/api/settings/organization')).json()).settings.auth_password_login_enabled).toBe(true)
    const { res: login } = await signInAs(t.app, 'bo@example.com', 'bo-password')
    expect(login.status).toBe(302)
  })

  it('stores the beacon answer, after which the question is not asked again', async () => {
    await admin.post('/api/settings/organization', { beacon_consent: true })
    const session = await (await admin.get('/api/session')).json()
    expect(session.client_config.showBeaconConsentMessage).toBe(false)
  })
})

describe('POST /api/events', () => {
  it('stores a batch of browser events in the audit log', async () => {
    const res = await user.post('/api/events', [
      { action: 'view', object_type: 'page', object_id: 'home', timestamp: 1700000000, screen_resolution: '1440x900' },
      { action: 'view', object_type: 'dashboard', object_id: 7 },
    ])
    expect(await res.json()).toEqual({ recorded: 2 })
    const rows = await t.db.sql`select e.action, e.object_type, e.object_id, e.additional_properties, u.email::text
      from events e join users u on u.id = e.user_id where e.object_type in ('page', 'dashboard') order by e.id`
    expect(rows.map((r) => [r.action, r.object_type, r.object_id, r.email])).toEqual([
      ['view', 'page', 'home', 'bo@example.com'], ['view', 'dashboard', '7', 'bo@example.com'],
    ])
    expect(rows[0].additional_properties).toMatchObject({ screen_resolution: '1440x900', timestamp: 1700000000 })
  })

  it.each([[[{ object_type: 'page' }]], ['just text'], [Array.from({ length: 101 }, () => ({ action: 'a', object_type: 'b' }))]])(
    'refuses malformed batches with 400 (%#)', async (body) => {
      const res = await user.post('/api/events', body)
      expect(res.status).toBe(400)
      expect((await res.json()).message).toContain('action and object_type')
    })

  it('needs a signed-in caller', async () => {
    expect((await new Client(t.app).post('/api/events', [])).status).toBe(401)
  })
})
