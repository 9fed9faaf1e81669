import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'

/**
 * Alerts end to end with a real worker: a stored result crosses a threshold, the check job decides, and each
 * subscription's delivery job sends through the destinations' code to a real HTTP server on 127.0.0.1 (a webhook
 * destination) or to the in-process SMTP server (an e-mail subscription). Every wait is for an event, with the
 * generous bounds of helpers/wait.ts; "only once" is checked after every job of the alert has ended.
 */
interface Hit { body: any; status: number }

/** A webhook receiver: answers each request with the next status of `plan` (200 once the plan is used up). */
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

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> }
let smtp: Awaited<ReturnType<typeof startSmtp>>
let source: number
let hooks: Awaited<ReturnType<typeof receiver>>[] = []

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp({ mail: smtp.mail, alertRetryBaseMs: 50 })
  admin = await setUp(t.app)
  await t.db.sql`create table alert_values (k text primary key, n int)`
  source = (await (await admin.post('/api/data_sources', { name: 'Here', type: 'pg', options: pgOptionsFor(t) })).json()).id
  worker = await startWorkerFor(t)
}, 60_000)
afterAll(async () => {
  await worker?.stop()
  await Promise.all(hooks.map((h) => h.close()))
  await smtp?.close()
  await t?.close()
})

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

/** A query of its own key in alert_values, an alert on it (> 10), and a webhook destination subscribed to it. */
async function scenario(key: string, o: { statuses?: number[]; options?: Record<string, unknown>; email?: boolean } = {}) {
  await t.db.sql`insert into alert_values values (${key}, 0)`
  const query = (await json(admin.post('/api/queries', { data_source_id: source, query: `select n from alert_values where k = '${key}'`, name: `Value ${key}` }))).id
  const alert = (await json(admin.post('/api/alerts', { name: `Alert ${key}`, query_id: query, options: { column: 'n', op: '>', value: 10, ...o.options } }))).id
  const hook = await receiver()
  hooks.push(hook)
  if (o.statuses) hook.answer(o.statuses)
  const destination = (await json(admin.post('/api/destinations', { name: `Hook ${key}`, type: 'webhook', options: { url: hook.url } }))).id
  await json(admin.post(`/api/alerts/${alert}/subscriptions`, { destination_id: destination }))
  if (o.email) await json(admin.post(`/api/alerts/${alert}/subscriptions`, {}))
  /** Set the value, run the query to a stored result, and wait until every alert job it caused has ended. */
  const store = async (n: number) => {
    await t.db.sql`update alert_values set n = ${n} where k = ${key}`
    const outcome = await outcomeOf(admin, await admin.post(`/api/queries/${query}/results`, { max_age: 0 }))
    expect(outcome.error).toBeUndefined()
    await checked(alert, outcome.result.id)
    await settled()
  }
  const deliveries = async () => json(admin.get(`/api/alerts/${alert}/deliveries`))
  const history = async () => json(admin.get(`/api/alerts/${alert}/history`))
  return { query, alert, hook, store, deliveries, history }
}

/** The alert's check of this result has committed (its state, history and deliveries with it). */
async function checked(alert: number, resultId: number) {
  await eventually(async () => (await t.db.sql<{ id: number }[]>`select checked_result_id as id from alerts where id = ${alert}`)[0]?.id,
    (id) => Number(id) === resultId, `alert ${alert} to check result ${resultId}`)
}

/** No check or delivery job left waiting or running (retries included): everything the last result caused is done. */
async function settled() {
  await eventually(async () => (await t.db.sql`
    select 1 from graphile_worker.jobs where task_identifier in ('check_alerts', 'deliver_alert')`).length, (n) => n === 0, 'alert jobs to end')
}

describe('a result crossing the threshold', () => {
  it('reaches the webhook once; the same state again sends nothing; back to normal sends once more', async () => {
    const s = await scenario('a')
    await s.store(0)
    // unknown → ok: recorded, nobody told
    expect((await s.history()).map((h: any) => [h.old_state, h.new_state, h.skipped])).toEqual([['unknown', 'ok', 'unknown_to_ok']])
    await s.store(42)
    expect(s.hook.hits).toHaveLength(1)
    expect(s.hook.hits[0].body).toMatchObject({
      event: 'alert_state_change', alert: { id: s.alert, name: 'Alert a', state: 'triggered', query_id: s.query },
      metadata: { Username: 'ada@example.com', query_id: s.query, Scheduled: false },
    })
    const [sent] = await s.deliveries()
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, new_state: 'triggered', answer: { status: 200 }, last_error: null })
    expect(sent.attempt_log).toMatchObject([{ attempt: 1, outcome: 'sent', status: 200 }])
    await s.store(43)
    expect(s.hook.hits).toHaveLength(1)
    await s.store(1)
    expect(s.hook.hits.map((h) => h.body.alert.state)).toEqual(['triggered', 'ok'])
    expect((await json(admin.get(`/api/alerts/${s.alert}`))).state).toBe('ok')
    expect((await s.history()).map((h: any) => h.new_state)).toEqual(['ok', 'triggered', 'ok'])
  }, 60_000)

  it('sends nothing while muted, and records the change', async () => {
    const s = await scenario('b')
    await s.store(0)
    await json(admin.post(`/api/alerts/${s.alert}/mute`))
    await s.store(50)
    expect(s.hook.hits).toHaveLength(0)
    expect(await s.deliveries()).toEqual([])
    expect((await s.history())[0]).toMatchObject({ old_state: 'ok', new_state: 'triggered', notified: false, skipped: 'muted' })
  }, 60_000)

  it('re-notifies a still-triggered alert on each evaluation with rearm 1', async () => {
    const s = await scenario('c')
    await json(admin.post(`/api/alerts/${s.alert}`, { rearm: 1 }))
    await s.store(20)
    await s.store(21)
    expect(s.hook.hits.map((h) => h.body.alert.state)).toEqual(['triggered', 'triggered'])
  }, 60_000)
})

describe('a destination that fails', () => {
  it('failing 3 times then recovering: delivered once, with the 3 failed attempts recorded', async () => {
    const s = await scenario('d', { statuses: [500, 503, 502] })
    await s.store(99)
    expect(s.hook.hits.map((h) => h.status)).toEqual([500, 503, 502, 200])
    const [d] = await s.deliveries()
    expect(d).toMatchObject({ status: 'sent', attempts: 4, answer: { status: 200 } })
    expect(d.attempt_log.map((a: any) => [a.attempt, a.outcome, a.status])).toEqual([[1, 'failed', 500], [2, 'failed', 503], [3, 'failed', 502], [4, 'sent', 200]])
    expect(d.last_error).toContain('502')
  }, 60_000)

  it('failing for good ends failed with its last error; a refusal is not tried again', async () => {
    const s = await scenario('e', { statuses: Array(10).fill(503) })
    await s.store(99)
    const [d] = await s.deliveries()
    expect(d).toMatchObject({ status: 'failed', attempts: 6 })
    expect(d.last_error).toContain('503')
    expect(s.hook.hits).toHaveLength(6)
    const refused = await scenario('f', { statuses: [404] })
    await refused.store(99)
    expect(await refused.deliveries()).toMatchObject([{ status: 'failed', attempts: 1 }])
    expect(refused.hook.hits).toHaveLength(1)
  }, 60_000)
})

describe('e-mail subscriptions and templates', () => {
  it('mails the subscriber; a template that fails is replaced by the default text, and the failure recorded', async () => {
    const s = await scenario('g', { email: true, options: { custom_subject: 'Subject {{ALERT_NAME}}', custom_body: 'Broken {{#QUERY_RESULT_ROWS}}' } })
    const before = smtp.received.length
    await s.store(77)
    const mails = smtp.received.slice(before)
    expect(mails).toHaveLength(1)
    expect(mails[0].to).toEqual(['ada@example.com'])
    expect(mails[0].subject).toBe('Subject Alert g')
    expect(mails[0].html).toContain('STATUS: TRIGGERED')
    const deliveries = await s.deliveries()
    expect(deliveries.map((d: any) => d.status)).toEqual(['sent', 'sent'])
    const mail = deliveries.find((d: any) => d.target.kind === 'user_email')
    expect(mail).toMatchObject({ target: { email: 'ada@example.com' }, template_error: expect.stringContaining('Custom body') })
    // the webhook got the default text too (its description is the custom body, empty when it failed)
    expect(s.hook.hits).toHaveLength(1)
  }, 60_000)
})

describe('an alert with parameter values of its own', () => {
  it('runs the query with them on its interval and is told of that result alone', async () => {
    const parameters = [{ name: 'x', title: 'x', type: 'number', value: 1 }]
    const query = (await json(admin.post('/api/queries', { data_source_id: source, query: 'select {{x}} * 10 as n', name: 'Scaled', options: { parameters } }))).id
    const hook = await receiver()
    hooks.push(hook)
    const destination = (await json(admin.post('/api/destinations', { name: 'Hook scaled', type: 'webhook', options: { url: hook.url } }))).id
    const alert = (await json(admin.post('/api/alerts', {
      name: 'Scaled', query_id: query, check_interval: 60, options: { column: 'n', op: '>', value: 10, parameters: { x: 5 } },
    }))).id
    await json(admin.post(`/api/alerts/${alert}/subscriptions`, { destination_id: destination }))
    // its own run is due at once: x = 5 gives 50
    await eventually(async () => hook.hits.length, (n) => n === 1, 'the notification of its own run')
    expect(hook.hits[0].body.alert).toMatchObject({ id: alert, state: 'triggered' })
    expect((await json(admin.get(`/api/alerts/${alert}/history`)))[0]).toMatchObject({ old_state: 'unknown', new_state: 'triggered', value: 50 })
    // a run of the query with its default value (10) is not this alert's to evaluate
    const outcome = await outcomeOf(admin, await admin.post(`/api/queries/${query}/results`, { max_age: 0 }))
    expect(outcome.result.data.rows).toEqual([{ n: 10 }])
    await settled()
    expect((await json(admin.get(`/api/alerts/${alert}`))).state).toBe('triggered')
    expect(hook.hits).toHaveLength(1)
    // the next own run is planned one interval on
    const [next] = await t.db.sql<{ at: Date }[]>`select run_at as at from graphile_worker.jobs where key = ${`alert-run:${alert}`}`
    expect(next.at.getTime()).toBeGreaterThan(Date.now() + 30_000)
  }, 60_000)
})
