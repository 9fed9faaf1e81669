import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFixture, newQuery, type QueryFixture } from '../api/queries-fixture.ts'
import { startWorkerFor } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { mimeParts } from '../helpers/mime.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { imageToken, unsubscribeToken } from '../../src/reports/index.ts'
import { eventually } from '../helpers/wait.ts'

/**
 * A report is drawn once, as its owner; what each recipient gets is cut to what they may see. A member without access
 * to a widget's source gets the restricted placeholder and none of its rows (not in the mail's text, HTML, pictures'
 * names or files); a destination outside gets only what the owner may read at send time.
 */
const SECRET = 'classified-row-'
let f: QueryFixture
let smtp: Awaited<ReturnType<typeof startSmtp>>
let worker: { stop(): Promise<void> }
let board: number
let secretQuery: number
let salesQuery: { id: number; table: number }
const hits: any[] = []
let hookUrl: string
let server: http.Server

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
async function settled() {
  await eventually(async () => (await f.t.db.sql`
    select 1 from graphile_worker.jobs where task_identifier in ('send_report', 'deliver_report')`).length, (n) => n === 0, 'report jobs to end', 60_000)
}
const allText = (raw: string) => mimeParts(raw).map((p) => `${p.filename ?? ''}\n${p.text}`).join('\n')

beforeAll(async () => {
  smtp = await startSmtp()
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      hits.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  f = await queryFixture()
  worker = await startWorkerFor(f.t, { mail: smtp.mail, baseUrl: 'http://sightline.test' })
  const secret = await newQuery(f.admin, { data_source_id: f.shared, name: 'Payroll', query: `select '${SECRET}' || n as secret_value from generate_series(1, 3) n` })
  const sales = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Sales', query: `select 'North' as region, 10 as sales` })
  for (const q of [secret, sales]) expect((await outcomeOf(f.admin, await f.admin.post(`/api/queries/${q.id}/results`, { max_age: 0 }))).error).toBeUndefined()
  secretQuery = secret.id
  salesQuery = { id: sales.id, table: (sales.visualizations as { id: number }[])[0].id }
  board = (await json(f.admin.post('/api/dashboards', { name: 'Mixed' }))).id
  await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: (secret.visualizations as { id: number }[])[0].id, options: {} }))
  await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: salesQuery.table, options: {} }))
}, 120_000)
afterAll(async () => {
  await worker?.stop()
  await new Promise<void>((r) => server?.close(() => r()))
  await smtp?.close()
  await f?.t.close()
})

describe("a report's recipients", () => {
  it('get the placeholder, and none of the rows, for a widget whose source they may not read', async () => {
    const report = await json(f.admin.post('/api/subscriptions', {
      dashboard_id: board, schedule: { interval: 86400 }, attachments: ['csv', 'xlsx', 'pdf'], recipients: [{ user_id: f.ids.bo }, { user_id: f.ids.vi }],
    }))
    await json(f.admin.post(`/api/subscriptions/${report.id}/send`, {}))
    await settled()
    const bo = smtp.received.find((m) => m.to.includes('bo@example.com'))!
    const vi = smtp.received.find((m) => m.to.includes('vi@example.com'))!
    const boText = allText(bo.raw)
    expect(boText).not.toContain(SECRET)
    expect(boText).not.toContain('Payroll')
    expect(boText).toContain("This widget requires access to a data source you don't have access to.")
    expect(mimeParts(bo.raw).filter((p) => p.filename?.endsWith('.csv')).map((p) => p.filename)).toEqual(['Table.csv'])
    // a view-only member of the source reads its results: theirs has it
    expect(allText(vi.raw)).toContain(`${SECRET}1`)
  }, 120_000)

  it("send to a destination only what the owner may read at send time", async () => {
    // bo owns a dashboard holding, by an admin's hand, a widget of a source bo may not read
    const own = (await json(f.bo.post('/api/dashboards', { name: "Bo's board" }))).id
    const secretViz = (await json(f.admin.get(`/api/queries/${secretQuery}`))).visualizations[0].id
    await json(f.admin.post('/api/widgets', { dashboard_id: own, visualization_id: secretViz, options: {} }))
    await json(f.admin.post('/api/widgets', { dashboard_id: own, visualization_id: salesQuery.table, options: {} }))
    const hook = (await json(f.admin.post('/api/destinations', { name: 'Outside', type: 'webhook', options: { url: hookUrl } }))).id
    const report = await json(f.bo.post('/api/subscriptions', { dashboard_id: own, schedule: { interval: 86400 }, recipients: [{ destination_id: hook }] }))
    await json(f.bo.post(`/api/subscriptions/${report.id}/send`, {}))
    await settled()
    expect(hits).toHaveLength(1)
    expect(JSON.stringify(hits[0])).not.toContain('Payroll')
    expect(hits[0].widgets.map((w: any) => w.title)).toContain('Table')
    expect(hits[0].widgets.some((w: any) => /requires access/.test(w.note ?? ''))).toBe(true)
  }, 120_000)

  it('open nothing by a token signed with another key, for another recipient or image, or past its time', async () => {
    const report = await json(f.admin.post('/api/subscriptions', { dashboard_id: board, schedule: { interval: 86400 }, recipients: [{ user_id: f.ids.bo }] }))
    const page = (token: string, method = 'GET') => f.t.app.request(`/unsubscribe/${token}`, { method })
    // another installation's key, and a token of bo's altered to name cleo: refused, nothing changed
    for (const token of [unsubscribeToken('another-key', report.id, { kind: 'user', id: f.ids.bo }),
      unsubscribeToken(f.t.deps.secretKey, report.id, { kind: 'user', id: f.ids.bo }).replace(`.u${f.ids.bo}.`, `.u${f.ids.cleo}.`),
      '1.u1', `${report.id}.u${f.ids.bo}.${'A'.repeat(43)}`, '../../api/subscriptions']) {
      expect((await page(token, 'POST')).status).toBeGreaterThanOrEqual(400)
    }
    expect((await json(f.admin.get(`/api/subscriptions/${report.id}`))).recipients).toEqual([{ user_id: f.ids.bo }])
    // a genuine token for someone who never got this report ends nothing
    const stranger = await page(unsubscribeToken(f.t.deps.secretKey, report.id, { kind: 'user', id: f.ids.cleo }), 'POST')
    expect(await stranger.text()).toContain('Nothing to do')
    // pictures: stored ones exist (a send with a chart), but no forged, other-key or expired token opens one
    const [image] = await f.t.db.sql<{ id: number }[]>`
      insert into report_images (send_id, widget_id, png, expires_at)
      select id, 1, '\\x89504e47'::bytea, now() + interval '1 day' from report_sends limit 1 returning id`
    const good = imageToken(f.t.deps.secretKey, image.id, new Date(Date.now() + 3600_000))
    expect((await f.t.app.request(`/reports/images/${good}`)).status).toBe(200)
    expect((await f.t.app.request(`/reports/images/${imageToken('another-key', image.id, new Date(Date.now() + 3600_000))}`)).status).toBe(404)
    expect((await f.t.app.request(`/reports/images/${imageToken(f.t.deps.secretKey, image.id, new Date(Date.now() - 1000))}`)).status).toBe(404)
    expect((await f.t.app.request(`/reports/images/${good.replace(/^\d+/, String(image.id + 1))}`)).status).toBe(404)
  }, 60_000)
})
