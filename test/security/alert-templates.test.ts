import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDelivery } from '../../src/alerts/index.ts'
import { DEFAULT_PERMISSIONS } from '../../src/permissions/index.ts'
import { addUser, Client, createTestApp, pgOptionsFor, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { startSmtp } from '../helpers/smtp.ts'

/**
 * Alert templates as an attacker with a member (or view-only) account writes them, and the delivery log as another
 * member reads it:
 * - nested sections that would render for minutes are refused within a bounded time, off the event loop (the server
 *   answers everyone else meanwhile), in the preview and in a delivery (which sends the default text and says why);
 * - `{{{ }}}` and `{{& }}` escape a value for its channel like `{{ }}` does (mail, Slack, a Teams card's JSON);
 * - only the alert's owner and admins read what a destination's service answered;
 * - one alert cannot push more than its budget of notifications to an organization destination: past it, each
 *   notification is recorded as refused, with the reason.
 */
const TOO_COMPLEX = 'This template is too complex to render.'
const HOSTILE = '<img src=x onerror=alert(1)>", "injected": "<!channel>'

/** A service on 127.0.0.1 that keeps what it is sent and answers `status` with `reply`. */
async function receiver(status = 200, reply = 'ok') {
  const hits: any[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      hits.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reply)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { hits, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

let t: TestApp
let admin: Client
let bo: Client
let cleo: Client
let vi: Client
let smtp: Awaited<ReturnType<typeof startSmtp>>
const receivers: Awaited<ReturnType<typeof receiver>>[] = []
let hundred: number
let hostile: number

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

async function storedQuery(client: Client, source: number, name: string, query: string) {
  const id = (await json(client.post('/api/queries', { data_source_id: source, query, name }))).id
  await json(client.post(`/api/queries/${id}/results`, { max_age: 0 }))
  await runJobs(t)
  return id
}

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp({ mail: smtp.mail })
  admin = await setUp(t.app)
  const sql = t.db.sql
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  await addUser(t, { name: 'Cleo', email: 'cleo@example.com', password: 'cleo-password' })
  const viUser = await addUser(t, { name: 'Vi', email: 'vi@example.com', password: 'vi-password' })
  const source = (await json(admin.post('/api/data_sources', { name: 'Here', type: 'pg', options: pgOptionsFor(t) }))).id
  // vi reads the source view-only, through a group of its own
  const [org] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const [viewers] = await sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Viewers', ${DEFAULT_PERMISSIONS}) returning id`
  await json(admin.post(`/api/groups/${viewers.id}/data_sources`, { data_source_id: source }))
  await json(admin.post(`/api/groups/${viewers.id}/data_sources/${source}`, { view_only: true }))
  await sql`delete from user_groups where user_id = ${viUser.id}`
  await sql`insert into user_groups (user_id, group_id) values (${viUser.id}, ${viewers.id})`
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  cleo = (await signInAs(t.app, 'cleo@example.com', 'cleo-password')).client
  vi = (await signInAs(t.app, 'vi@example.com', 'vi-password')).client
  hundred = await storedQuery(admin, source, 'Hundred', 'select generate_series(1, 100) as n')
  hostile = await storedQuery(admin, source, 'Hostile', `select '${HOSTILE.replace(/'/g, "''")}' as v`)
}, 120_000)
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  await smtp?.close()
  await t?.close()
})

/** `levels` sections of the 100 rows, each inside the last, around `inner`: 100^levels passes. */
const nested = (levels: number, inner = '') =>
  '{{#QUERY_RESULT_ROWS}}'.repeat(levels) + inner + '{{/QUERY_RESULT_ROWS}}'.repeat(levels)

const preview = (client: Client, customBody: string) =>
  client.post('/api/alerts/preview', { query_id: hundred, options: { column: 'n', op: '>', value: 0, custom_body: customBody } })

async function hook(status = 200, reply = 'ok') {
  const r = await receiver(status, reply)
  receivers.push(r)
  return r
}

async function destination(type: string, options: Record<string, unknown>) {
  return (await json(admin.post('/api/destinations', { name: `${type} ${receivers.length} ${Math.random()}`, type, options }))).id as number
}

/** Triggered by the first row of either query: a number above 0, a text other than 'never'. */
const threshold = (column: string) => (column === 'n' ? { op: '>', value: 0 } : { op: '!=', value: 'never' })

/** An alert of `owner` on `query` (triggered by its first row), subscribed to the given destinations and e-mails. */
async function alertOf(owner: Client, query: number, column: string, options: Record<string, unknown>, o: { destinations?: number[]; email?: boolean } = {}) {
  // subscribers are saved with the alert, whose first evaluation (at creation) queues their notifications
  const subscriptions = [...(o.destinations ?? []).map((d) => ({ destination_id: d })), ...(o.email ? [{}] : [])]
  return (await json(owner.post('/api/alerts', { name: `Alert ${Math.random()}`, query_id: query, options: { column, ...threshold(column), ...options }, subscriptions }))).id as number
}

/** Send each delivery the alert has queued once, as the worker's job would. */
async function deliverQueued(alert: number) {
  const rows = await t.db.sql<{ id: number }[]>`select id from alert_deliveries where alert_id = ${alert} and status = 'pending' order by id`
  const deps = { sql: t.db.sql, secretKey: t.deps.secretKey, config: t.deps.config, retryBaseMs: 60_000 }
  for (const row of rows) await runDelivery(deps, row.id, 'test-worker', 2_000_000 + row.id)
}

describe('a template that would render for minutes', () => {
  it('previewed by a view-only user: refused within a bounded time, while the server answers others', async () => {
    const { templateRenderEvents } = await import('../../src/destinations/index.ts')
    const began = performance.now()
    const rendering = once(templateRenderEvents, 'start')
    let answered = false
    const pending = preview(vi, nested(4)).finally(() => (answered = true))
    await rendering
    // the template is being rendered right now: a request of someone else's is answered meanwhile
    const ping = await t.app.request('/ping')
    expect(ping.status).toBe(200)
    expect(answered).toBe(false)
    const res = await pending
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: TOO_COMPLEX })
    // a bound, not a speed figure (bench/template-preview.ts measures): minutes before, the budget's 250 ms now
    expect(performance.now() - began).toBeLessThan(10_000)
  })

  it('previewed many at once by one member: refused past two in flight, while others still preview', async () => {
    const { templateRenderEvents } = await import('../../src/destinations/index.ts')
    const { previewTemplate } = await import('../../src/alerts/index.ts')
    const { principalToRunAs } = await import('../../src/credentials/index.ts')
    const [{ id: viId }] = await t.db.sql<{ id: number }[]>`select id from users where email = 'vi@example.com'`
    const viPrincipal = (await principalToRunAs(t.db.sql, viId))!
    let started = 0
    const bothRendering = new Promise<void>((resolve) => {
      const onStart = () => {
        if (++started < 2) return
        templateRenderEvents.off('start', onStart)
        resolve()
      }
      templateRenderEvents.on('start', onStart)
    })
    const slow = [preview(vi, nested(4)), preview(vi, nested(4))]
    await bothRendering
    // both template threads hold this member's previews: a third, asked now, is refused at once instead of queued
    // (asked of the service itself, so no time passes in the request's middleware while the two still render)
    const third = previewTemplate(t.deps, viPrincipal, { query_id: hundred, options: { column: 'n', op: '>', value: 0, custom_body: nested(4) } })
    await expect(third).rejects.toMatchObject({ status: 429, message: 'Previews are still being rendered: try again in a moment.' })
    // someone else's preview waits for a thread and is answered
    const other = await preview(admin, '{{#QUERY_RESULT_ROWS}}{{n}}{{/QUERY_RESULT_ROWS}}')
    expect(other.status).toBe(200)
    for (const res of await Promise.all(slow)) expect(res.status).toBe(400)
    // done rendering, the member may preview again
    expect((await preview(vi, '{{#QUERY_RESULT_ROWS}}{{n}}{{/QUERY_RESULT_ROWS}}')).status).toBe(200)
  })

  it('previewed with more output than the budget: refused, not cut', async () => {
    const res = await preview(vi, nested(3, 'x'.repeat(20)))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: TOO_COMPLEX })
  })

  it('a sensible template still previews', async () => {
    const body = await json(preview(vi, '{{#QUERY_RESULT_ROWS}}{{n}},{{/QUERY_RESULT_ROWS}}'))
    expect(body.body).toBe(Array.from({ length: 100 }, (_, i) => `${i + 1},`).join(''))
    expect(body.custom).toEqual({ subject: false, body: true })
  })

  it('in a delivery: the default text goes out, and the delivery says why', async () => {
    const alert = await alertOf(bo, hundred, 'n', { custom_subject: 'Custom {{ALERT_NAME}}', custom_body: nested(4) }, { email: true })
    const before = smtp.received.length
    await deliverQueued(alert)
    const mails = smtp.received.slice(before)
    expect(mails).toHaveLength(1)
    expect(mails[0].to).toEqual(['bo@example.com'])
    expect(mails[0].html).toContain('STATUS: TRIGGERED')
    // only the body was too complex: the custom subject still goes
    expect(mails[0].subject).toMatch(/^Custom Alert [\d.]+$/)
    const [delivery] = await json(bo.get(`/api/alerts/${alert}/deliveries`))
    expect(delivery.status).toBe('sent')
    expect(delivery.template_error).toContain(TOO_COMPLEX)
  })
})

describe('unescaped Mustache tags', () => {
  const custom = { custom_subject: 'S {{{ALERT_NAME}}}', custom_body: '<p>{{{QUERY_RESULT_VALUE}}}</p><p>{{& QUERY_RESULT_VALUE}}</p>' }

  it('escape the value as HTML in a mail', async () => {
    const alert = await alertOf(bo, hostile, 'v', custom, { email: true })
    const before = smtp.received.length
    await deliverQueued(alert)
    const [mail] = smtp.received.slice(before)
    expect(mail.html).toContain('<p>&lt;img src=x onerror=alert(1)&gt;&quot;, &quot;injected&quot;: &quot;&lt;!channel&gt;</p>')
    expect(mail.html).not.toContain('<img')
  })

  it('escape the value for a Teams card, Slack and a webhook', async () => {
    const teams = await hook()
    const slack = await hook()
    const plain = await hook()
    const ids = [
      await destination('microsoft_teams_webhook', {
        url: teams.url, message_template: '{"type": "AdaptiveCard", "body": [{"type": "TextBlock", "text": "{{{QUERY_RESULT_VALUE}}}"}]}',
      }),
      await destination('slack', { url: slack.url }),
      await destination('webhook', { url: plain.url }),
    ]
    const alert = await alertOf(bo, hostile, 'v', custom, { destinations: ids })
    await deliverQueued(alert)
    // the card's JSON keeps the value inside its string: no key is added to the block
    const block = teams.hits[0].attachments[0].content.body[0]
    expect(block).toEqual({ type: 'TextBlock', text: HOSTILE })
    // Slack reads <…> as a mention or a link: escaped as Slack asks
    const description = slack.hits[0].attachments[0].fields.find((f: any) => f.title === 'Description').value
    expect(description).toBe(`<p>${HOSTILE.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`.repeat(2))
    expect(description).not.toContain('<!channel>')
    // a webhook's payload is JSON: the value arrives as it is, inside its string
    expect(plain.hits[0].alert.description).toBe(`<p>${HOSTILE}</p>`.repeat(2))
  })
})

describe('the delivery log', () => {
  it("shows the service's answer to the alert's owner and admins only", async () => {
    const good = await hook(200, 'accepted: receipt 7731 for hook-token-abc')
    const bad = await hook(400, 'rejected: unknown channel #payroll-private')
    const alert = await alertOf(bo, hundred, 'n', {}, { destinations: [await destination('webhook', { url: good.url }), await destination('webhook', { url: bad.url })] })
    await deliverQueued(alert)
    const serviceWords = /receipt 7731|hook-token-abc|payroll-private|unknown channel/

    for (const reader of [bo, admin]) {
      const text = JSON.stringify(await json(reader.get(`/api/alerts/${alert}/deliveries`)))
      expect(text).toContain('receipt 7731')
      expect(text).toContain('payroll-private')
    }
    const seen = await json(cleo.get(`/api/alerts/${alert}/deliveries`))
    expect(JSON.stringify(seen)).not.toMatch(serviceWords)
    // the outcome itself is still there
    const byStatus = Object.fromEntries(seen.map((d: any) => [d.status, d]))
    expect(byStatus.sent).toMatchObject({ answer: { status: 200 }, attempt_log: [{ outcome: 'sent', status: 200 }] })
    expect(byStatus.failed).toMatchObject({ attempt_log: [{ outcome: 'failed', status: 400 }] })
    expect(byStatus.failed.last_error).toContain('400')
    // and the alert's page, drawn from the same log
    const page = await cleo.get(`/alerts/${alert}`)
    expect(page.status).toBe(200)
    expect(await page.text()).not.toMatch(serviceWords)
  })
})

describe("notifications to an organization's destination", () => {
  it('past the budget of one alert, are refused and recorded as such, not sent or dropped', async () => {
    const { DESTINATION_NOTIFICATIONS_PER_HOUR } = await import('../../src/alerts/index.ts')
    const target = await hook()
    const alert = await alertOf(bo, hundred, 'n', {}, { destinations: [await destination('webhook', { url: target.url })] })
    // the first notification was queued at creation
    for (let i = 1; i < DESTINATION_NOTIFICATIONS_PER_HOUR; i++) await json(bo.post(`/api/alerts/${alert}/eval`))
    let deliveries = await json(bo.get(`/api/alerts/${alert}/deliveries?limit=500`))
    expect(deliveries).toHaveLength(DESTINATION_NOTIFICATIONS_PER_HOUR)
    expect(deliveries.every((d: any) => d.status === 'pending')).toBe(true)

    await json(bo.post(`/api/alerts/${alert}/eval`))
    await deliverQueued(alert)
    deliveries = await json(bo.get(`/api/alerts/${alert}/deliveries?limit=500`))
    expect(deliveries).toHaveLength(DESTINATION_NOTIFICATIONS_PER_HOUR + 1)
    const [refused] = deliveries
    expect(refused.status).toBe('refused')
    expect(refused.last_error).toContain(`${DESTINATION_NOTIFICATIONS_PER_HOUR} notifications an hour`)
    expect(refused.attempts).toBe(0)
    // the earlier ones were sent; the refused one never reaches the service, and no job waits to send it
    expect(target.hits).toHaveLength(DESTINATION_NOTIFICATIONS_PER_HOUR)
    expect(await t.db.sql`select 1 from graphile_worker.jobs where key = ${`alert-delivery:${refused.id}`}`).toHaveLength(0)
    // another alert on the same destination has its own budget
    const other = await alertOf(bo, hundred, 'n', {}, { destinations: [(await t.db.sql<{ id: number }[]>`select destination_id as id from alert_deliveries where id = ${refused.id}`)[0].id] })
    await deliverQueued(other)
    expect((await json(bo.get(`/api/alerts/${other}/deliveries`)))[0].status).toBe('sent')
  })
})
