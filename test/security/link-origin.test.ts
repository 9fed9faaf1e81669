import http from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { setupOrganization } from '../../src/orgs/index.ts'
import { originTexts } from '../../src/shared/origin-texts.ts'
import { checkUserLink } from '../../src/users/index.ts'
import { ADMIN, addUser, Client, createTestApp, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { startTestServer, TEST_SECRET_KEY, type TestServer } from '../helpers/server.ts'
import { startSmtp, type ArrivedMail } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'

/**
 * A stranger's requests must not decide where Sightline's links point. Every link that leaves the server (a reset or
 * invitation mail, the addresses admins copy) is built on the public origin: SIGHTLINE_BASE_URL, else the
 * organization's `base_url`, confirmed at setup. A request under another name (`Host: attacker.invalid`,
 * `X-Forwarded-Host`) is still served, but no link carries its name; until an install knows its origin, no link
 * carrying a token is mailed at all.
 */

const ORIGIN = 'https://bi.example.com'
const ATTACKER = 'attacker.invalid'
/** What a stranger's request says about where it was sent. */
const POISON = { host: ATTACKER, 'x-forwarded-host': ATTACKER, 'x-forwarded-proto': 'https' }

/** One HTTP request with the headers given as they are, `Host` included (fetch would not let a test set it). */
function rawRequest(base: string, o: { method: string; path: string; headers?: Record<string, string>; form?: Record<string, string>; json?: unknown }) {
  const body = o.form ? new URLSearchParams(o.form).toString() : o.json === undefined ? undefined : JSON.stringify(o.json)
  const type = o.form ? 'application/x-www-form-urlencoded' : 'application/json'
  const url = new URL(o.path, base)
  return new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: o.method,
      headers: { ...o.headers, ...(body ? { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), cookies: res.headers['set-cookie'] ?? [] }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const fieldValue = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0].match(/value="([^"]*)"/)?.[1]
const tokenIn = (text: string, path: 'reset' | 'invite') => new RegExp(`/${path}/([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)`).exec(text)?.[1]

describe('a server set up with its address, mail configured and SIGHTLINE_BASE_URL unset', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let server: TestServer
  let victimId: number
  beforeAll(async () => {
    smtp = await startSmtp()
    server = await startTestServer({ role: 'all', mail: smtp.mail })
    victimId = (await setupOrganization(server.db.sql, TEST_SECRET_KEY, { ...ADMIN, base_url: ORIGIN })).userId
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  it('mails a POST /forgot sent with Host and X-Forwarded-Host of another site a working link on the configured origin only', async () => {
    const res = await rawRequest(server.url, { method: 'POST', path: '/forgot', headers: { ...POISON, origin: `https://${ATTACKER}` }, form: { email: ADMIN.email } })
    // served under the other name: the same neutral answer as ever
    expect(res.status).toBe(200)
    const [mail] = await eventually(async () => smtp.received.filter((m) => m.to.includes(ADMIN.email)), (m) => m.length > 0, 'the reset mail')
    expect(mail.text + mail.html).not.toContain(ATTACKER)
    expect(mail.text).toMatch(new RegExp(`${ORIGIN.replace(/[./]/g, '\\$&')}/reset/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+`))
    const token = tokenIn(mail.text, 'reset')!
    expect(await checkUserLink(server.db.sql, { secretKey: TEST_SECRET_KEY }, 'reset', token)).toBe(victimId)
  })

  it('mails an invitation an admin asks for under another name on the configured origin', async () => {
    const signIn = await rawRequest(server.url, { method: 'POST', path: '/login', form: { email: ADMIN.email, password: ADMIN.password } })
    const cookies = signIn.cookies.map((c) => c.split(';')[0])
    const csrf = cookies.find((c) => c.startsWith('csrf_token='))!.slice('csrf_token='.length)
    const invited = await rawRequest(server.url, {
      method: 'POST', path: '/api/users', json: { name: 'Ivy Invited', email: 'ivy@example.com' },
      headers: { ...POISON, cookie: cookies.join('; '), 'x-csrf-token': csrf },
    })
    expect(invited.status).toBe(200)
    expect(invited.text).not.toContain('/invite/')
    const [mail] = await eventually(async () => smtp.received.filter((m: ArrivedMail) => m.to.includes('ivy@example.com')), (m) => m.length > 0, 'the invitation')
    expect(mail.text + mail.html).not.toContain(ATTACKER)
    expect(mail.text).toContain(`${ORIGIN}/invite/`)
  })
})

describe('the setup form', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ mail: undefined })
  })
  afterAll(async () => t?.close())

  it('proposes the address it was opened on, refuses a bad one, and stores the one the admin confirmed', async () => {
    const visitor = new Client(t.app)
    // the address as the server sees it: the request's Host (and the scheme a TLS proxy reports)
    const opened = await visitor.request('GET', 'http://sightline.internal:8080/setup', { headers: { host: 'sightline.internal:8080' } })
    expect(fieldValue(await opened.text(), 'base_url')).toBe('http://sightline.internal:8080')
    const behindTls = await visitor.request('GET', 'http://sightline.internal/setup', { headers: { host: 'sightline.internal', 'x-forwarded-proto': 'https' } })
    expect(fieldValue(await behindTls.text(), 'base_url')).toBe('https://sightline.internal')

    const withPath = await visitor.request('POST', '/setup', { form: { ...ADMIN, base_url: 'https://bi.example.com/sightline' } })
    expect(withPath.status).toBe(400)
    expect(await withPath.text()).toContain(originTexts.onlyOrigin)
    const none = await visitor.request('POST', '/setup', { form: { ...ADMIN, base_url: '' } })
    expect(none.status).toBe(400)
    expect(await t.db.sql`select 1 from organizations`).toHaveLength(0)

    // the admin corrects the proposal to the address people use
    const done = await visitor.request('POST', '/setup', { form: { ...ADMIN, base_url: ' HTTPS://BI.Example.com:443/ ' } })
    expect(done.status).toBe(302)
    const settings = await (await visitor.get('/api/settings/organization')).json()
    expect(settings.settings.base_url).toBe(ORIGIN)
  })
})

describe('links admins are shown to copy, without a mail server', () => {
  let t: TestApp
  let admin: Client
  beforeAll(async () => {
    t = await createTestApp({ mail: undefined })
    admin = new Client(t.app)
    const res = await admin.request('POST', '/setup', { form: { ...ADMIN, base_url: ORIGIN } })
    expect(res.status).toBe(302)
  })
  afterAll(async () => t?.close())

  /** The admin's API call, addressed to the attacker's name. */
  const poisoned = (method: string, path: string, json?: unknown) =>
    admin.request(method, `http://${ATTACKER}${path}`, { json, headers: { ...POISON, 'x-csrf-token': admin.csrf } })

  it('builds invite_link and reset_link on the origin, not on the Host the request named', async () => {
    const created = await (await poisoned('POST', '/api/users', { name: 'Una Unmailed', email: 'una@example.com' })).json()
    expect(created.invite_link).toMatch(new RegExp(`^${ORIGIN.replace(/[./]/g, '\\$&')}/invite/`))
    const again = await (await poisoned('POST', `/api/users/${created.id}/invite`)).json()
    expect(again.invite_link).toMatch(new RegExp(`^${ORIGIN.replace(/[./]/g, '\\$&')}/invite/`))
    const reset = await (await poisoned('POST', `/api/users/1/reset_password`)).json()
    expect(reset.reset_link).toMatch(new RegExp(`^${ORIGIN.replace(/[./]/g, '\\$&')}/reset/`))
  })

  it('builds public_url on the origin in the share answer, in the dashboard read and on the dashboard page', async () => {
    const dashboard = await (await admin.post('/api/dashboards', { name: 'Shared' })).json()
    const shared = await (await poisoned('POST', `/api/dashboards/${dashboard.id}/share`)).json()
    expect(shared.public_url).toBe(`${ORIGIN}/public/dashboards/${shared.api_key}`)
    const read = await (await admin.request('GET', `http://${ATTACKER}/api/dashboards/${dashboard.id}`, { headers: POISON })).json()
    expect(read.public_url).toBe(shared.public_url)
    const page = await (await admin.request('GET', `http://${ATTACKER}/dashboards/${dashboard.id}`, { headers: POISON })).text()
    expect(page).toContain(shared.public_url)
    expect(page).not.toContain(`${ATTACKER}/public`)
  })
})

describe('an install set up before Sightline asked for its address, with mail configured', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let t: TestApp
  let admin: Client
  let memberId: number
  const sendMailJobs = async () => (await t.db.sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
     where k.identifier = 'send_mail'`)[0].n
  beforeAll(async () => {
    smtp = await startSmtp()
    t = await createTestApp({ mail: smtp.mail })
    // as an install made before setup asked for the address: no base_url stored
    await setupOrganization(t.db.sql, t.deps.secretKey, { name: ADMIN.name, email: ADMIN.email, password: ADMIN.password, org_name: ADMIN.org_name })
    admin = (await signInAs(t.app, ADMIN.email, ADMIN.password)).client
    memberId = (await addUser(t, { name: 'Max Member', email: 'max@example.com', password: 'member password' })).id
  })
  afterAll(async () => {
    await t?.close()
    await smtp?.close()
  })
  beforeEach(() => {
    smtp.received.length = 0
  })

  it('mails no reset link for a POST /forgot, and answers the same neutral page', async () => {
    const res = await new Client(t.app).request('POST', `http://${ATTACKER}/forgot`, { form: { email: 'max@example.com' }, headers: POISON })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('If an account exists for that address')
    await runJobs(t)
    expect(await sendMailJobs()).toBe(0)
    expect(smtp.received).toEqual([])
    expect((await t.db.sql`select 1 from user_tokens where purpose = 'reset'`).length).toBe(0)
  })

  it('hands admins the links, root-relative, instead of mailing them, and refuses to mail a verification link', async () => {
    const created = await (await admin.request('POST', `http://${ATTACKER}/api/users`, {
      json: { name: 'Nell New', email: 'nell@example.com' }, headers: { ...POISON, 'x-csrf-token': admin.csrf },
    })).json()
    expect(created.invite_link).toMatch(/^\/invite\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    const reset = await (await admin.post(`/api/users/${memberId}/reset_password`)).json()
    expect(reset.reset_link).toMatch(/^\/reset\//)
    const dashboard = await (await admin.post('/api/dashboards', { name: 'Shared' })).json()
    const shared = await (await admin.request('POST', `http://${ATTACKER}/api/dashboards/${dashboard.id}/share`, { headers: { ...POISON, 'x-csrf-token': admin.csrf } })).json()
    expect(shared.public_url).toBe(`/public/dashboards/${shared.api_key}`)
    const member = (await signInAs(t.app, 'max@example.com', 'member password')).client
    const verify = await member.request('POST', '/verification_email/', { headers: { accept: 'application/json', 'x-csrf-token': member.csrf } })
    expect(verify.status).toBe(400)
    expect(await verify.json()).toEqual({ message: originTexts.notSet })
    await runJobs(t)
    expect(await sendMailJobs()).toBe(0)
    expect(smtp.received).toEqual([])
  })

  it('asks admins, and only admins, to set the address in a banner leading to the General settings', async () => {
    const home = await (await admin.get('/')).text()
    expect(home).toContain(originTexts.banner)
    expect(home).toContain('href="/settings/general#org-base-url"')
    const member = (await signInAs(t.app, 'max@example.com', 'member password')).client
    expect(await (await member.get('/')).text()).not.toContain(originTexts.banner)
  })

  it('validates base_url in POST api/settings/organization with a clear 400', async () => {
    for (const [value, message] of [
      ['ftp://bi.example.com', originTexts.scheme],
      ['javascript:alert(1)', originTexts.scheme],
      ['https://bi.example.com/path', originTexts.onlyOrigin],
      ['https://bi.example.com/?next=/', originTexts.onlyOrigin],
      ['https://bi.example.com/#top', originTexts.onlyOrigin],
      ['https://user:secret@bi.example.com', originTexts.userinfo],
      ['bi.example.com', originTexts.invalid],
    ] as const) {
      const res = await admin.post('/api/settings/organization', { base_url: value })
      expect(res.status, value).toBe(400)
      expect(await res.json(), value).toEqual({ message })
    }
    expect((await admin.post('/api/settings/organization', { base_url: 42 })).status).toBe(400)
    expect(((await (await admin.get('/api/settings/organization')).json()).settings.base_url)).toBe('')
  })

  it('once an admin sets the address, the banner goes and a POST /forgot mails a link on it, whatever the Host', async () => {
    const saved = await admin.post('/api/settings/organization', { base_url: 'HTTPS://BI.example.com:8443/' })
    expect(saved.status).toBe(200)
    expect((await saved.json()).settings.base_url).toBe('https://bi.example.com:8443')
    expect(await (await admin.get('/')).text()).not.toContain(originTexts.banner)
    expect((await new Client(t.app).request('POST', `http://${ATTACKER}/forgot`, { form: { email: 'max@example.com' }, headers: POISON })).status).toBe(200)
    await runJobs(t)
    const [mail] = await eventually(async () => smtp.received, (m) => m.length > 0, 'the reset mail')
    expect(mail.to).toEqual(['max@example.com'])
    expect(mail.text + mail.html).not.toContain(ATTACKER)
    expect(mail.text).toContain('https://bi.example.com:8443/reset/')
  })
})

describe('SIGHTLINE_BASE_URL set', () => {
  const ENV_ORIGIN = 'https://env.example.com'
  let t: TestApp
  let admin: Client
  beforeAll(async () => {
    t = await createTestApp({ mail: undefined, baseUrl: ENV_ORIGIN })
  })
  afterAll(async () => t?.close())

  it('shows it read-only on the setup form, which needs no address then', async () => {
    const form = await (await new Client(t.app).request('GET', `http://${ATTACKER}/setup`, { headers: POISON })).text()
    const field = /<input[^>]*name="base_url"[^>]*>/.exec(form)?.[0] ?? ''
    expect(field).toContain(`value="${ENV_ORIGIN}"`)
    expect(field).toMatch(/readOnly=""|readonly=""/i)
    admin = await setUp(t.app)
  })

  it('overrides the stored setting for every link, refuses changes to it, and shows it read-only in the settings', async () => {
    await t.db.sql`update organizations set settings = settings || '{"base_url": "https://stored.example.com"}'::jsonb`
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
    await t.deps.bus.invalidate('org', org.id)
    const created = await (await admin.request('POST', `http://${ATTACKER}/api/users`, {
      json: { name: 'Eve Env', email: 'eve@example.com' }, headers: { ...POISON, 'x-csrf-token': admin.csrf },
    })).json()
    expect(created.invite_link.startsWith(`${ENV_ORIGIN}/invite/`)).toBe(true)
    const refused = await admin.post('/api/settings/organization', { base_url: 'https://other.example.com' })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ message: originTexts.setByEnvironment })
    const page = await (await admin.get('/settings/general')).text()
    const field = /<input[^>]*id="org-base-url"[^>]*>/.exec(page)?.[0] ?? ''
    expect(field).toContain(`value="${ENV_ORIGIN}"`)
    expect(field).toMatch(/readOnly=""|readonly=""/i)
    expect(page).toContain(originTexts.fromEnvironment)
    expect(page).not.toContain(originTexts.banner)
  })
})
