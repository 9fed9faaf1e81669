import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORBIDDEN, islandProps, islandsOf, shellIslands } from '../helpers/pages.ts'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** The organization settings page (spec 3 §2, §3): who may open it, what it is given, and the password-login rule. */
let t: TestApp
let admin: Client
let member: Client

/** The settings tabs in order, by label. */
const tabLabels = (html: string) =>
  [...(/<nav aria-label="Settings"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? '').matchAll(/<a href="[^"]+"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1])

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  member = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
})
afterAll(() => t.close())

describe('/settings/general', () => {
  it('sends an anonymous visitor to sign in, and back afterwards', async () => {
    const res = await new Client(t.app).get('/settings/general')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/settings/general')}`)
  })

  it('leads /settings/organization, the established tool\'s address, to the same page', async () => {
    const res = await admin.get('/settings/organization')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/settings/general')
  })

  it('gives a member the 403 page, and no General tab anywhere', async () => {
    const res = await member.get('/settings/general')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain(FORBIDDEN)
    const users = await member.get('/users')
    expect(tabLabels(await users.text())).not.toContain('General')
  })

  it('shows an admin the form in the General tab, last of the settings tabs', async () => {
    const res = await admin.get('/settings/general')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(tabLabels(html)).toEqual(['Data Sources', 'Users', 'Groups', 'Alert Destinations', 'Query Snippets', 'General'])
    expect(html).toMatch(/<a href="\/settings\/general" aria-current="page"/)
    expect(html).toContain('<title>General | Sightline</title>')
    expect(islandsOf(html)).toEqual([...shellIslands(), 'OrgSettingsForm', 'ScimToken'].sort())
  })

  it('gives the form every setting of spec 3 §3 and the configuration\'s format lists', async () => {
    const props = islandProps(await (await admin.get('/settings/general')).text(), 'OrgSettingsForm')
    const config = (await (await admin.get('/api/config')).json()).client_config
    expect(props.dateFormats).toEqual(config.dateFormatList)
    expect(props.timeFormats).toEqual(config.timeFormatList)
    expect(Object.keys(props.settings as object).sort()).toEqual([
      'audit_log_retention_days', 'auth_google_apps_domains', 'auth_jwt_auth_audience', 'auth_jwt_auth_cookie_name',
      'auth_jwt_auth_header_name', 'auth_jwt_auth_issuer', 'auth_jwt_auth_public_certs_url', 'auth_jwt_login_enabled',
      'auth_oidc_button_label', 'auth_oidc_client_id', 'auth_oidc_client_secret', 'auth_oidc_enabled', 'auth_oidc_group_mappings',
      'auth_oidc_groups_claim', 'auth_oidc_issuer_url', 'auth_password_login_enabled', 'auth_saml_enabled', 'auth_saml_entity_id',
      'auth_saml_groups_attribute', 'auth_saml_metadata_url', 'auth_saml_nameid_format', 'auth_saml_sso_url', 'auth_saml_type', 'auth_saml_x509_cert',
      'base_url', 'beacon_consent', 'date_format', 'disable_public_urls', 'feature_show_permissions_control', 'hide_plotly_mode_bar',
      'multi_byte_search_enabled', 'send_email_on_failed_scheduled_queries', 'time_format', 'time_zone',
    ])
    // no other sign-in method is configured here (no LDAP), so password login cannot be switched off
    expect(props.otherLoginMethod).toBe(false)
  })

  it('draws Sightline\'s address as setup stored it, for the admin to edit', async () => {
    const html = await (await admin.get('/settings/general')).text()
    expect(islandProps(html, 'OrgSettingsForm')).toMatchObject({ settings: { base_url: 'http://localhost' }, originFromEnvironment: null })
    const field = /<input[^>]*id="org-base-url"[^>]*>/.exec(html)?.[0] ?? ''
    expect(field).toContain('value="http://localhost"')
    expect(field).not.toMatch(/readonly/i)
  })

  it('draws saved values, and warns that mails about failed queries need a mail server', async () => {
    await admin.post('/api/settings/organization', { date_format: 'YYYY-MM-DD', auth_google_apps_domains: ['example.com', 'example.org'] })
    const html = await (await admin.get('/settings/general')).text()
    expect(islandProps(html, 'OrgSettingsForm').settings).toMatchObject({ date_format: 'YYYY-MM-DD', auth_google_apps_domains: ['example.com', 'example.org'] })
    expect(html).toMatch(/<option value="YYYY-MM-DD" selected="">/)
    expect(html).toContain('value="example.com, example.org"')
    expect(islandProps(html, 'OrgSettingsForm').mailConfigured).toBe(false)
    expect(html).toContain('Your mail server isn&#x27;t configured correctly, and is needed for emails about failed scheduled queries to work.')
    expect(html).toContain('Password login can be disabled only if another login method is enabled.')
  })
})

describe('with a mail server configured', () => {
  let mailed: TestApp
  let mailAdmin: Client
  beforeAll(async () => {
    mailed = await createTestApp({
      mail: { server: 'mail.example.com', port: 587, useSsl: false, useTls: true, username: undefined, password: undefined, defaultSender: 'sightline@example.com' },
    })
    mailAdmin = await setUp(mailed.app)
  })
  afterAll(() => mailed.close())

  it('shows no mail warning', async () => {
    const html = await (await mailAdmin.get('/settings/general')).text()
    expect(islandProps(html, 'OrgSettingsForm').mailConfigured).toBe(true)
    expect(html).not.toContain('Your mail server isn&#x27;t configured correctly')
  })
})

describe('password login (spec 3 §5)', () => {
  it('cannot be switched off while no other login method works, even with SAML switched on', async () => {
    const res = await admin.post('/api/settings/organization', { auth_saml_enabled: true, auth_password_login_enabled: false })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Password login can be disabled only if another login method is enabled.')
    // nothing of the refused change was kept
    const { settings } = await (await admin.get('/api/settings/organization')).json()
    expect(settings).toMatchObject({ auth_password_login_enabled: true, auth_saml_enabled: false })
  })

  it('may be confirmed on', async () => {
    const res = await admin.post('/api/settings/organization', { auth_password_login_enabled: true })
    expect(res.status).toBe(200)
    expect((await res.json()).settings.auth_password_login_enabled).toBe(true)
  })
})
