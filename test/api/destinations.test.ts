import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliver, DeliveryFailed, sampleNotification } from '../../src/destinations/index.ts'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { startSmtp } from '../helpers/smtp.ts'

let t: TestApp
let admin: Client
let member: Client
let anonymous: Client
let memberKey: string
let smtp: Awaited<ReturnType<typeof startSmtp>>
/** A real webhook receiver on 127.0.0.1: what it got, and the status it answers. */
let hook: http.Server
let hookUrl = ''
let hookStatus = 200
const hookGot: { auth?: string; body: Record<string, unknown> }[] = []

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp({ mail: smtp.mail, baseUrl: 'http://sightline.test' })
  admin = await setUp(t.app)
  memberKey = (await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })).apiKey
  member = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  anonymous = new Client(t.app)
  hook = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      hookGot.push({ auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      res.writeHead(hookStatus).end(hookStatus === 200 ? 'got it' : 'broken')
    })
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`
})
afterAll(async () => {
  await t.close()
  await smtp.close()
  await new Promise<void>((resolve) => hook.close(() => resolve()))
})

const del = (client: Client, path: string) => client.request('DELETE', path)
const message = async (res: Response) => ((await res.json()) as { message: string }).message

describe('types', () => {
  it('lists every kind with its icon and schema, for admins only', async () => {
    const res = await admin.get('/api/destinations/types')
    expect(res.status).toBe(200)
    const types = (await res.json()) as { type: string; name: string; icon: string; deprecated: boolean; configuration_schema: { secret?: string[]; required?: string[] } }[]
    expect(types.map((x) => x.type).sort()).toEqual(
      ['chatwork', 'discord', 'email', 'hangouts_chat', 'hipchat', 'mattermost', 'microsoft_teams_webhook', 'pagerduty', 'slack', 'webhook'])
    const byType = Object.fromEntries(types.map((x) => [x.type, x]))
    expect(byType.email).toMatchObject({ name: 'Email', icon: 'fa-envelope', deprecated: false })
    expect(byType.email.configuration_schema.required).toEqual(['addresses'])
    expect(byType.slack).toMatchObject({ icon: 'fa-slack', configuration_schema: { secret: ['url'] } })
    expect(byType.webhook.configuration_schema).toMatchObject({ required: ['url'], secret: ['password', 'url'] })
    expect(byType.pagerduty.icon).toBe('creative-commons-pd-alt')
    expect(byType.hipchat.deprecated).toBe(true)
    expect((await member.get('/api/destinations/types')).status).toBe(403)
    expect((await anonymous.get('/api/destinations/types')).status).toBe(401)
  })
})

describe('create, read, save, delete', () => {
  let id = 0

  it('refuses bad input with a 4xx message', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'webhook', options: { url: hookUrl } }, 'Name: This field is required.'],
      [{ name: '  ', type: 'webhook', options: { url: hookUrl } }, 'Name: This field is required.'],
      [{ name: 'X', options: { url: hookUrl } }, 'type is required.'],
      [{ name: 'X', type: 'carrier_pigeon', options: {} }, 'Unknown alert destination type: carrier_pigeon.'],
      [{ name: 'X', type: 'webhook', options: {} }, 'url: This field is required.'],
      [{ name: 'X', type: 'webhook', options: { url: hookUrl, colour: 'red' } }, 'Unknown option: colour.'],
      [{ name: 'X', type: 'webhook', options: { url: { a: 1 } } }, 'url must be text.'],
      [{ name: 'X', type: 'email', options: { addresses: 'a@example.com, not an address' } }, '“not an address” is not an e-mail address.'],
      [{ name: 'X', type: 'webhook', options: { url: 'file:///etc/passwd' } }, 'url must be an address starting with http:// or https://.'],
      [{ name: 'X', type: 'mattermost', options: { url: hookUrl, icon_url: 'javascript:alert(1)' } }, 'Icon (URL) must be an address'],
      [{ name: 'X', type: 'webhook', options: 'url' }, 'options must be an object.'],
      [{ name: 'X'.repeat(300), type: 'webhook', options: { url: hookUrl } }, 'Name is too long (at most 255 characters).'],
      [{ name: 'X', type: 'webhook', options: { url: hookUrl, username: 'u'.repeat(200_000) } }, 'Alert destination options are too large'],
      [[1, 2], 'The request body must be a JSON object'],
    ]
    for (const [body, text] of cases) {
      const res = await admin.post('/api/destinations', body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(await message(res)).toContain(text)
    }
    const huge = await admin.request('POST', '/api/destinations', { json: { name: 'X', type: 'webhook', options: { url: 'x'.repeat(2_000_000) } } })
    expect(huge.status).toBe(413)
    const notJson = await admin.request('POST', '/api/destinations', { headers: { 'content-type': 'application/json' }, form: undefined })
    expect(notJson.status).toBeGreaterThanOrEqual(400)
    expect(notJson.status).toBeLessThan(500)
  })

  it('creates for admins only, secrets sealed and shown masked', async () => {
    expect((await member.post('/api/destinations', { name: 'Mine', type: 'webhook', options: { url: hookUrl } })).status).toBe(403)
    expect((await anonymous.post('/api/destinations', { name: 'Mine', type: 'webhook', options: { url: hookUrl } })).status).toBe(401)
    const res = await admin.post('/api/destinations', { name: 'Ops hook', type: 'webhook', options: { url: hookUrl, username: 'ops', password: 's3cret' } })
    expect(res.status).toBe(200)
    const created = await res.json()
    id = created.id
    expect(created).toEqual({ id, name: 'Ops hook', type: 'webhook', icon: 'fa-bolt', options: { username: 'ops', url: '--------', password: '--------' } })
    const [row] = await t.db.sql<{ options: Record<string, unknown>; secrets: string; user_id: number }[]>`select options, secrets, user_id from destinations where id = ${id}`
    expect(row.options).toEqual({ username: 'ops' })
    expect(row.secrets).not.toContain('s3cret')
    expect(row.secrets).not.toContain('127.0.0.1')
    expect(await (await admin.get(`/api/destinations/${id}`)).json()).toEqual(created)
  })

  it('refuses a second destination with the same name, with the established message', async () => {
    const res = await admin.post('/api/destinations', { name: 'Ops hook', type: 'slack', options: { url: 'https://hooks.slack.test/x' } })
    expect(res.status).toBe(400)
    expect(await message(res)).toBe('Alert Destination with the name Ops hook already exists.')
  })

  it('lists id, name, type and icon for everyone signed in, in id order; nothing for strangers', async () => {
    await admin.post('/api/destinations', { name: 'Team mail', type: 'email', options: { addresses: 'team@example.com' } })
    const list = await (await member.get('/api/destinations')).json()
    expect(list).toEqual([
      { id, name: 'Ops hook', type: 'webhook', icon: 'fa-bolt' },
      { id: expect.any(Number), name: 'Team mail', type: 'email', icon: 'fa-envelope' },
    ])
    const byKey = await t.app.request('/api/destinations', { headers: { authorization: `Key ${memberKey}` } })
    expect(await byKey.json()).toEqual(list)
    expect((await anonymous.get('/api/destinations')).status).toBe(401)
  })

  it('shows one destination and its options to admins only', async () => {
    expect((await member.get(`/api/destinations/${id}`)).status).toBe(403)
    expect((await anonymous.get(`/api/destinations/${id}`)).status).toBe(401)
    expect((await admin.get('/api/destinations/999999')).status).toBe(404)
    expect((await admin.get('/api/destinations/abc')).status).toBe(404)
  })

  it('saves: the mask keeps a secret, a new value replaces it; name, type and options are all needed', async () => {
    expect((await member.post(`/api/destinations/${id}`, { name: 'Taken', type: 'webhook', options: { url: hookUrl } })).status).toBe(403)
    const saved = await admin.post(`/api/destinations/${id}`, { name: 'Ops webhook', type: 'webhook', options: { url: '--------', username: 'ops', password: '--------' } })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toMatchObject({ name: 'Ops webhook', options: { url: '--------', password: '--------', username: 'ops' } })
    const missing = await admin.post(`/api/destinations/${id}`, { name: 'Ops webhook', options: { url: '--------' } })
    expect(missing.status).toBe(400)
    const dup = await admin.post(`/api/destinations/${id}`, { name: 'Team mail', type: 'webhook', options: { url: '--------' } })
    expect(await message(dup)).toBe('Alert Destination with the name Team mail already exists.')
    // the secrets kept are the ones that reach the service
    hookGot.length = 0
    const test = await admin.post(`/api/destinations/${id}/test`)
    expect(test.status).toBe(200)
    expect(hookGot[0].auth).toBe(`Basic ${Buffer.from('ops:s3cret').toString('base64')}`)
    // dropping the username: no authentication; a new password replaces the old one
    await admin.post(`/api/destinations/${id}`, { name: 'Ops webhook', type: 'webhook', options: { url: '--------', username: 'ops2', password: 'n3w' } })
    await admin.post(`/api/destinations/${id}/test`)
    expect(hookGot[1].auth).toBe(`Basic ${Buffer.from('ops2:n3w').toString('base64')}`)
  })

  it('Send Test answers with the service\'s answer, or its refusal as a 502 JSON message', async () => {
    hookGot.length = 0
    const ok = await admin.post(`/api/destinations/${id}/test`)
    expect(await ok.json()).toEqual({ message: 'Test notification sent.', status: 200, detail: 'got it' })
    expect(hookGot[0].body).toMatchObject({
      event: 'alert_state_change', url_base: 'http://sightline.test',
      alert: { name: 'Test alert from Sightline', state: 'triggered', query_id: 0 },
    })
    hookStatus = 500
    const refused = await admin.post(`/api/destinations/${id}/test`)
    expect(refused.status).toBe(502)
    expect(await refused.json()).toMatchObject({ message: expect.stringContaining('answered HTTP 500: broken'), status: 500, retryable: true })
    hookStatus = 200
    expect((await member.post(`/api/destinations/${id}/test`)).status).toBe(403)
    // a kind that cannot send at all: a 400 that says why
    const gone = await (await admin.post('/api/destinations', { name: 'Old chat', type: 'hipchat', options: { url: 'https://hipchat.test/x' } })).json()
    const hip = await admin.post(`/api/destinations/${gone.id}/test`)
    expect(hip.status).toBe(400)
    expect(await message(hip)).toMatch(/HipChat was shut down/)
  })

  it('sends a test mail through the mail server', async () => {
    const list = (await (await admin.get('/api/destinations')).json()) as { id: number; name: string }[]
    const mail = list.find((d) => d.name === 'Team mail')!
    const res = await admin.post(`/api/destinations/${mail.id}/test`)
    expect(await res.json()).toEqual({ message: 'Test notification sent.', status: null, detail: 'Sent to team@example.com.' })
    const arrived = smtp.received.at(-1)!
    expect(arrived.to).toEqual(['team@example.com'])
    expect(arrived.subject).toBe('Alert: Test alert from Sightline changed status to TRIGGERED')
  })

  it('deletes for admins only', async () => {
    expect((await del(member, `/api/destinations/${id}`)).status).toBe(403)
    expect((await del(admin, `/api/destinations/${id}`)).status).toBe(204)
    expect((await admin.get(`/api/destinations/${id}`)).status).toBe(404)
    expect((await del(admin, `/api/destinations/${id}`)).status).toBe(404)
  })
})

describe('deliver()', () => {
  it('sends to a stored destination by id; a missing one fails without retry', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
    const created = await (await admin.post('/api/destinations', { name: 'Deliver hook', type: 'webhook', options: { url: hookUrl } })).json()
    hookGot.length = 0
    const n = sampleNotification('http://sightline.test', 1)
    const answer = await deliver(t.deps, org.id, { kind: 'destination', destinationId: created.id }, n)
    expect(answer).toEqual({ status: 200, detail: 'got it' })
    expect(hookGot).toHaveLength(1)
    const missing = await deliver(t.deps, org.id, { kind: 'destination', destinationId: 999_999 }, n).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(DeliveryFailed)
    expect(missing).toMatchObject({ retryable: false, status: null })
    // another organization's id is not found either
    const other = await deliver(t.deps, org.id + 1, { kind: 'destination', destinationId: created.id }, n).catch((e: unknown) => e)
    expect(other).toMatchObject({ retryable: false })
    expect(hookGot).toHaveLength(1)
  })

  it('mails a subscriber\'s own address', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
    const before = smtp.received.length
    const answer = await deliver(t.deps, org.id, { kind: 'user_email', email: 'bo@example.com', name: 'Bo' }, sampleNotification('http://sightline.test', 0))
    expect(answer.status).toBeNull()
    expect(smtp.received[before].to).toEqual(['bo@example.com'])
  })
})
