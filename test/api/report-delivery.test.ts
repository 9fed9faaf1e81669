import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planDueReports } from '../../src/reports/index.ts'
import { startWorkerFor } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { mailHeaders, mimeParts } from '../helpers/mime.ts'
import { startSmtp, type ArrivedMail } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'
import { newQuery, queryFixture, type QueryFixture } from './queries-fixture.ts'

/**
 * Reports end to end with real workers: a send is drawn once, then each recipient's delivery job mails the in-process
 * SMTP server or posts to a real HTTP receiver on 127.0.0.1. Waits are for events (jobs ended, rows written), with the
 * bounds of helpers/wait.ts; "once" is checked after every report job has ended.
 */
const ORIGIN = 'http://sightline.test'
interface Hit { body: any; status: number }

async function receiver() {
  const hits: Hit[] = []
  let plan: number[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const status = plan.shift() ?? 200
      hits.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), status })
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'broken')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return { hits, url, answer: (statuses: number[]) => (plan = statuses), close: () => new Promise<void>((r) => server.close(() => r())) }
}

let f: QueryFixture
let smtp: Awaited<ReturnType<typeof startSmtp>>
let hook: Awaited<ReturnType<typeof receiver>>
let workers: { stop(): Promise<void> }[] = []
let board: number
let destination: number

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

/** No report job waiting or running (retries included): everything a send caused has ended. */
async function settled() {
  await eventually(async () => (await f.t.db.sql`
    select 1 from graphile_worker.jobs where task_identifier in ('plan_reports', 'send_report', 'deliver_report', 'send_mail')`).length,
  (n) => n === 0, 'report jobs to end', 60_000)
}

/** A time of day twelve hours from now: a daily report at it is not due (and sent by the planner) while the file runs. */
const halfADayAway = () => new Date(Date.now() + 12 * 3600_000).toISOString().slice(11, 16)

const mailsTo = (address: string, since = 0) => smtp.received.slice(since).filter((m) => m.to.includes(address))
const htmlOf = (m: ArrivedMail) => mimeParts(m.raw).find((p) => p.type === 'text/html')?.text ?? ''

beforeAll(async () => {
  smtp = await startSmtp()
  hook = await receiver()
  f = await queryFixture()
  workers.push(await startWorkerFor(f.t, { mail: smtp.mail, alertRetryBaseMs: 50, baseUrl: ORIGIN }))
  const sales = await newQuery(f.admin, {
    data_source_id: f.warehouse, name: 'Sales', query: `select r as region, n as sales from (values ('North', 10), ('South', 25)) v(r, n)`,
  })
  expect((await outcomeOf(f.admin, await f.admin.post(`/api/queries/${sales.id}/results`, { max_age: 0 }))).error).toBeUndefined()
  const chart = (await json(f.admin.post('/api/visualizations', {
    query_id: sales.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', sales: 'y' } },
  }))).id
  board = (await json(f.admin.post('/api/dashboards', { name: 'Weekly sales' }))).id
  await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: null, text: '# Notes\nNumbers **as of** today.', options: { position: { col: 0, row: 0, sizeX: 6, sizeY: 2 } } }))
  await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: chart, options: { position: { col: 0, row: 2, sizeX: 3, sizeY: 8 } } }))
  await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: (sales.visualizations as { id: number }[])[0].id, options: { position: { col: 3, row: 2, sizeX: 3, sizeY: 8 } } }))
  destination = (await json(f.admin.post('/api/destinations', { name: 'Team hook', type: 'webhook', options: { url: hook.url } }))).id
}, 120_000)
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()))
  await hook?.close()
  await smtp?.close()
  await f?.t.close()
})

describe('a send', () => {
  let report: any
  let boMail: ArrivedMail

  it('mails each person their report with pictures inline, the PDF and result files, links and RFC 8058 headers; a destination that is down is retried and recorded', async () => {
    hook.answer([503])
    report = await json(f.admin.post('/api/subscriptions', {
      dashboard_id: board, schedule: { interval: 86400, time: halfADayAway() }, attachments: ['png', 'pdf', 'csv', 'xlsx'],
      recipients: [{ user_id: f.ids.admin }, { user_id: f.ids.bo }, { destination_id: destination }],
    }))
    await json(f.admin.post(`/api/subscriptions/${report.id}/send`, {}))
    await settled()
    const { deliveries } = await json(f.admin.get(`/api/subscriptions/${report.id}/deliveries`))
    expect(deliveries.map((d: any) => [d.target.kind, d.status]).sort()).toEqual([['destination', 'sent'], ['user', 'sent'], ['user', 'sent']])
    const hooked = deliveries.find((d: any) => d.target.kind === 'destination')
    expect(hooked.attempts).toBe(2)
    expect(hooked.attempt_log.map((a: any) => a.outcome)).toEqual(['failed', 'sent'])
    expect(hooked.attempt_log[0].message).toContain('503')
    // each attempt as the history has always shown it, and no error left on a delivery that got through
    expect(Object.keys(hooked.attempt_log[1]).sort()).toEqual(['at', 'attempt', 'message', 'outcome', 'status'])
    expect(hooked.last_error).toBeNull()

    const [adminMail] = mailsTo('ada@example.com')
    ;[boMail] = mailsTo('bo@example.com')
    expect(mailsTo('ada@example.com')).toHaveLength(1)
    expect(mailsTo('bo@example.com')).toHaveLength(1)
    expect(adminMail.subject).toBe('Report: Weekly sales')
    const parts = mimeParts(adminMail.raw)
    const html = htmlOf(adminMail)
    const picture = parts.find((p) => p.type === 'image/png' && p.cid)!
    expect(picture.content.subarray(1, 4).toString()).toBe('PNG')
    expect(html).toContain(`src="cid:${picture.cid}"`)
    expect(html).toMatch(/<h1[^>]*>Notes<\/h1>/)
    expect(html).toContain('<strong>as of</strong>')
    expect(html).toContain(`href="${ORIGIN}/dashboards/${board}-weekly-sales"`)
    expect(parts.find((p) => p.type === 'application/pdf')?.content.subarray(0, 5).toString()).toBe('%PDF-')
    expect(parts.filter((p) => p.filename?.endsWith('.csv')).map((p) => p.text)).toContain('region,sales\r\nNorth,10\r\nSouth,25\r\n')
    expect(parts.filter((p) => p.filename?.endsWith('.xlsx'))).toHaveLength(2)
    const headers = mailHeaders(adminMail.raw)
    expect(headers.get('list-unsubscribe')).toMatch(new RegExp(`^<${ORIGIN}/unsubscribe/[^>]+>$`))
    expect(headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(html).toContain(`${ORIGIN}/unsubscribe/`)

    // the chat side: text and signed picture addresses on the public origin, which serve the chart
    expect(hook.hits).toHaveLength(2)
    const body = hook.hits[1].body
    expect(body).toMatchObject({ event: 'report', name: 'Weekly sales', url: `${ORIGIN}/dashboards/${board}-weekly-sales`, late: false })
    const image = body.widgets.find((w: any) => w.image_url)
    expect(image.image_url).toMatch(new RegExp(`^${ORIGIN}/reports/images/`))
    const served = await f.t.app.request(image.image_url.slice(ORIGIN.length))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    const forged = image.image_url.slice(ORIGIN.length).replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'))
    expect((await f.t.app.request(forged)).status).toBe(404)
    expect((await json(f.admin.get(`/api/subscriptions/${report.id}`))).last_sent_at).not.toBeNull()
  }, 120_000)

  it('unsubscribes that recipient alone: GET asks, POST ends, a reused or forged link changes nothing', async () => {
    const link = /<([^>]+)>/.exec(mailHeaders(boMail.raw).get('list-unsubscribe')!)![1].slice(ORIGIN.length)
    const asked = await f.t.app.request(link)
    expect(asked.status).toBe(200)
    const page = await asked.text()
    expect(page).toContain('Stop sending the report &quot;Weekly sales&quot; to you?')
    expect(page).toContain(`<form action="${link}" method="post">`)
    expect((await json(f.admin.get(`/api/subscriptions/${report.id}`))).recipients).toContainEqual({ user_id: f.ids.bo })
    const done = await f.t.app.request(link, { method: 'POST' })
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('is no longer sent to you')
    const after = await json(f.admin.get(`/api/subscriptions/${report.id}`))
    expect(after.recipients).toEqual([{ user_id: f.ids.admin }, { destination_id: destination }])
    const reused = await f.t.app.request(link, { method: 'POST' })
    expect(await reused.text()).toContain('Nothing to do')
    expect((await json(f.admin.get(`/api/subscriptions/${report.id}`))).recipients).toEqual(after.recipients)
    const forged = link.replace(`.u${f.ids.bo}.`, `.u${f.ids.cleo}.`)
    const refused = await f.t.app.request(forged, { method: 'POST' })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('This unsubscribe link is not valid')
    // the next send reaches the others, not bo
    const before = smtp.received.length
    await json(f.admin.post(`/api/subscriptions/${report.id}/send`, {}))
    await settled()
    expect(mailsTo('bo@example.com', before)).toHaveLength(0)
    expect(mailsTo('ada@example.com', before)).toHaveLength(1)
  }, 120_000)

  it('tells the owner when every recipient failed', async () => {
    const refusing = (await json(f.admin.post('/api/destinations', { name: 'Gone hook', type: 'webhook', options: { url: `${hook.url}?gone` } }))).id
    hook.answer([404])
    const lonely = await json(f.admin.post('/api/subscriptions', { dashboard_id: board, schedule: { interval: 86400 }, recipients: [{ destination_id: refusing }] }))
    const before = smtp.received.length
    await json(f.admin.post(`/api/subscriptions/${lonely.id}/send`, {}))
    await settled()
    const { deliveries } = await json(f.admin.get(`/api/subscriptions/${lonely.id}/deliveries`))
    expect(deliveries.map((d: any) => [d.status, d.attempts])).toEqual([['failed', 1]])
    const told = mailsTo('ada@example.com', before)
    expect(told.map((m) => m.subject)).toEqual(['Your report "Weekly sales" reached none of its recipients'])
  }, 120_000)
})

describe('before drawing', () => {
  it('runs results older than the interval (or never run) first; a widget whose run fails shows why, and the report still goes', async () => {
    const fresh = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Never run', query: 'select 4242 as answer' })
    const broken = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Broken', query: 'select * from no_such_table_here' })
    const other = (await json(f.admin.post('/api/dashboards', { name: 'Stale board' }))).id
    for (const q of [fresh, broken]) {
      await json(f.admin.post('/api/widgets', { dashboard_id: other, visualization_id: (q.visualizations as { id: number }[])[0].id, options: {} }))
    }
    const report = await json(f.admin.post('/api/subscriptions', { dashboard_id: other, schedule: { interval: 86400 } }))
    const before = smtp.received.length
    await json(f.admin.post(`/api/subscriptions/${report.id}/send`, {}))
    await settled()
    const [mail] = mailsTo('ada@example.com', before)
    const html = htmlOf(mail)
    expect(html).toContain('>4,242</td>')
    expect(html).toContain('no_such_table_here')
  }, 120_000)
})

describe('parameter values', () => {
  it("sends the result for the report's own values, not the dashboard's defaults", async () => {
    const times = await newQuery(f.admin, {
      data_source_id: f.warehouse, name: 'Times ten', query: 'select {{x}} * 10 as answer',
      options: { parameters: [{ name: 'x', title: 'X', type: 'number', value: 1 }] },
    })
    const valued = (await json(f.admin.post('/api/dashboards', { name: 'Valued board' }))).id
    await json(f.admin.post('/api/widgets', {
      dashboard_id: valued, visualization_id: (times.visualizations as { id: number }[])[0].id,
      options: { parameterMappings: { x: { name: 'x', type: 'dashboard-level', mapTo: 'x', value: null, title: '' } } },
    }))
    const report = await json(f.admin.post('/api/subscriptions', { dashboard_id: valued, schedule: { interval: 86400 }, parameters: { x: '2' }, attachments: ['csv'] }))
    const before = smtp.received.length
    await json(f.admin.post(`/api/subscriptions/${report.id}/send`, {}))
    await settled()
    const [mail] = mailsTo('ada@example.com', before)
    expect(htmlOf(mail)).toContain('>20</td>')
    expect(htmlOf(mail)).not.toContain('>10</td>')
    expect(mimeParts(mail.raw).find((p) => p.filename?.endsWith('.csv'))?.text).toBe('answer\r\n20\r\n')
    // the live link opens the dashboard with the same values
    expect(htmlOf(mail)).toContain(`href="${ORIGIN}/dashboards/${valued}-valued-board?p_x=2"`)
  }, 120_000)
})

describe('the schedule', () => {
  it('sends a time missed while no worker ran once, marked late, and plans the next from now', async () => {
    const hourly = await json(f.admin.post('/api/subscriptions', { dashboard_id: board, schedule: { interval: 3600 } }))
    await f.t.db.sql`update report_subscriptions set next_send_at = now() - interval '3 hours 10 minutes' where id = ${hourly.id}`
    const before = smtp.received.length
    await f.t.db.sql`select graphile_worker.add_job('plan_reports', '{}'::json)`
    await settled()
    const sends = await f.t.db.sql`select late, due_at from report_sends where subscription_id = ${hourly.id}`
    expect(sends.map((s) => s.late)).toEqual([true])
    const mails = mailsTo('ada@example.com', before)
    expect(mails.map((m) => m.subject)).toEqual(['[Late] Report: Weekly sales'])
    const next = new Date((await json(f.admin.get(`/api/subscriptions/${hourly.id}`))).next_send_at)
    expect(next.getTime()).toBeGreaterThan(Date.now())
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000)
  }, 120_000)

  it('sends each report due at the same time exactly once with two workers and three planners', async () => {
    workers.push(await startWorkerFor(f.t, { mail: smtp.mail, alertRetryBaseMs: 50, baseUrl: ORIGIN }))
    const ids: number[] = []
    for (let i = 0; i < 12; i++) ids.push((await json(f.admin.post('/api/subscriptions', { dashboard_id: board, schedule: { interval: 3600 } }))).id)
    await f.t.db.sql`update report_subscriptions set next_send_at = now() - interval '1 second' where id = any(${ids})`
    const before = smtp.received.length
    await f.t.db.sql`select graphile_worker.add_job('plan_reports', '{}'::json)`
    await f.t.db.sql`select graphile_worker.add_job('plan_reports', '{}'::json, job_key => 'second-planner')`
    await planDueReports(f.t.db.sql)
    await settled()
    const perReport = await f.t.db.sql<{ n: number }[]>`
      select count(*)::int as n from report_deliveries where subscription_id = any(${ids}) group by subscription_id`
    expect(perReport.map((r) => r.n)).toEqual(ids.map(() => 1))
    expect(mailsTo('ada@example.com', before)).toHaveLength(ids.length)
  }, 120_000)
})
