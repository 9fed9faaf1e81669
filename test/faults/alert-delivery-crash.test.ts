import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import type { SightlineProcess } from '../helpers/process.ts'
import { eventually } from '../helpers/wait.ts'
import { workerProcesses } from '../helpers/workers.ts'

/*
 * Alert deliveries when worker processes die or run side by side (decision 0022). A worker killed with SIGKILL while
 * its webhook request is in flight (the receiver holds it unanswered) leaves the delivery claimed; once the worker
 * counts as dead its job is unlocked, a live worker takes the claim over and sends again: the notification is
 * answered once, both attempts are recorded, nothing is lost. Two live workers never send one notification twice.
 */
const DEAD_AFTER = 4
const WAIT_MS = 120_000

interface Hit { alert: number; state: string; answered: boolean }

/** A webhook receiver; while `hold` is set, requests are kept open and never answered. */
async function receiver() {
  const hits: Hit[] = []
  let hold = false
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const hit = { alert: body.alert.id as number, state: body.alert.state as string, answered: !hold }
      hits.push(hit)
      if (!hold) res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    hits, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, setHold: (h: boolean) => (hold = h),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()) }),
  }
}

describe('alert deliveries and worker processes', () => {
  let t: TestApp
  let admin: Client
  let hook: Awaited<ReturnType<typeof receiver>>
  let source: number
  let workers: ReturnType<typeof workerProcesses>

  beforeAll(async () => {
    t = await createTestApp({ workerDeadAfterSeconds: DEAD_AFTER })
    admin = await setUp(t.app)
    workers = workerProcesses(t, DEAD_AFTER, { SIGHTLINE_ALERT_RETRY_BASE_MS: '100' })
    hook = await receiver()
    await t.db.sql`create table watched (k text primary key, n int)`
    source = (await (await admin.post('/api/data_sources', { name: 'Here', type: 'pg', options: pgOptionsFor(t) })).json()).id
  }, 60_000)
  afterAll(async () => {
    await workers?.close()
    await hook?.close()
    await t?.close()
  })

  const worker = () => workers.start()
  const kill = (w: SightlineProcess) => workers.kill(w)
  const post = async (p: string, body: unknown) => {
    const res = await admin.post(p, body)
    expect(res.status, await res.clone().text()).toBe(200)
    return res.json()
  }
  /** `count` alerts on one new query (> 10), each subscribed to the receiver's webhook destination. */
  const alerts = async (key: string, count: number) => {
    await t.db.sql`insert into watched values (${key}, 0)`
    const query = (await post('/api/queries', { data_source_id: source, query: `select n from watched where k = '${key}'`, name: key })).id
    const destination = (await post('/api/destinations', { name: `Hook ${key}`, type: 'webhook', options: { url: hook.url } })).id
    const ids: number[] = []
    for (let i = 0; i < count; i++) {
      const id = (await post('/api/alerts', { name: `${key} ${i}`, query_id: query, options: { column: 'n', op: '>', value: 10 } })).id
      await post(`/api/alerts/${id}/subscriptions`, { destination_id: destination })
      ids.push(id)
    }
    const cross = async () => {
      await t.db.sql`update watched set n = 99 where k = ${key}`
      const outcome = await outcomeOf(admin, await admin.post(`/api/queries/${query}/results`, { max_age: 0 }))
      expect(outcome.error).toBeUndefined()
    }
    return { ids, cross }
  }
  const deliveriesOf = (ids: number[]) => t.db.sql<{ alert_id: number; status: string; attempts: number; attempt_log: any[] }[]>`
    select alert_id, status, attempts, attempt_log from alert_deliveries where alert_id = any(${ids}::bigint[]) order by alert_id`

  it('a worker killed in the middle of a delivery: sent again by another, answered once, both attempts recorded', async () => {
    const first = await worker()
    const { ids, cross } = await alerts('crash', 1)
    hook.setHold(true)
    await cross()
    await eventually(async () => hook.hits.length, (n) => n === 1, 'the held request', WAIT_MS)
    expect(await deliveriesOf(ids)).toMatchObject([{ status: 'sending', attempts: 1 }])
    await kill(first)
    hook.setHold(false)
    await worker()
    const [done] = await eventually(() => deliveriesOf(ids), (rows) => rows[0]?.status === 'sent', 'the delivery sent by the second worker', WAIT_MS)
    expect(done.attempts).toBe(2)
    expect(done.attempt_log.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'interrupted'], [2, 'sent']])
    expect(hook.hits.map((h) => h.answered)).toEqual([false, true])
    await eventually(async () => (await t.db.sql`select 1 from graphile_worker.jobs where task_identifier = 'deliver_alert'`).length, (n) => n === 0, 'no delivery job left', WAIT_MS)
    expect(hook.hits).toHaveLength(2)
  }, 240_000)

  it('two live workers send each of 40 notifications exactly once', async () => {
    await worker() // with the one from the test before: two
    const { ids, cross } = await alerts('pair', 40)
    const before = hook.hits.length
    await cross()
    await eventually(() => deliveriesOf(ids), (rows) => rows.length === 40 && rows.every((r) => r.status === 'sent'), 'all 40 sent', WAIT_MS)
    await eventually(async () => (await t.db.sql`select 1 from graphile_worker.jobs where task_identifier in ('check_alerts', 'deliver_alert')`).length, (n) => n === 0, 'no alert job left', WAIT_MS)
    const got = hook.hits.slice(before).map((h) => h.alert).sort((a, b) => a - b)
    expect(got).toEqual([...ids].sort((a, b) => a - b))
    expect((await deliveriesOf(ids)).every((d) => d.attempts === 1)).toBe(true)
  }, 240_000)
})
