import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WorkerJobJson, outdatedQueries, QueueJson, systemStatus, WorkerJson } from '../../src/monitoring/index.ts'
import { VERSION } from '../../src/version.ts'
import { addUser, ADMIN, Client, createTestApp, pgOptionsFor, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { eventually } from '../helpers/wait.ts'

let t: TestApp
let admin: Client
let bo: Client
let adminId: number
let orgId: number
let dsId: number
let worker: { stop(): Promise<void> } | undefined

const PATHS = ['/api/admin/queries/outdated', '/api/admin/queries/rq_status', '/status.json']
const hourly = { interval: 3600, time: null, day_of_week: null, until: null }

interface RqStatus {
  queues: Record<string, QueueJson>
  workers: WorkerJson[]
}
type SystemStatus = Awaited<ReturnType<typeof systemStatus>>
type Outdated = Awaited<ReturnType<typeof outdatedQueries>>
const RQ = '/api/admin/queries/rq_status'

const run = (text: string) => admin.post('/api/query_results', { data_source_id: dsId, query: text, max_age: 0 })

async function json<T>(path: string): Promise<T> {
  const res = await admin.get(path)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-store')
  return res.json()
}

/** Reads rq_status until `ok` holds for the answer (the worker moves on its own clock), and returns that answer. */
const until = (ok: (body: RqStatus) => boolean) => eventually(() => json<RqStatus>(RQ), ok, 'the expected rq_status')

async function createQuery(body: Record<string, unknown>) {
  const res = await admin.post('/api/queries', { data_source_id: dsId, query: 'select 1', ...body })
  expect(res.status).toBe(200)
  return (await res.json()).id as number
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  ;[{ id: adminId, org_id: orgId }] = await t.db.sql<{ id: number; org_id: number }[]>`select id, org_id from users where email = ${ADMIN.email}`
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  worker = await startWorkerFor(t)
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

describe('who may look', () => {
  it('answers anonymous callers 401 and users without super_admin 403, in JSON', async () => {
    for (const path of PATHS) {
      const anonymous = await new Client(t.app).get(path)
      expect([path, anonymous.status, (await anonymous.json()).message]).toEqual([path, 401, expect.any(String)])
      const other = await bo.get(path)
      expect([path, other.status, (await other.json()).message]).toEqual([path, 403, expect.any(String)])
    }
  })
})

describe('with a worker running', () => {
  it('lists every queue the worker serves, an empty one with 0: each source\'s queries and the other jobs\' queue', async () => {
    const other = (await (await admin.post('/api/data_sources', { name: 'Archive', type: 'pg', options: pgOptionsFor(t) })).json()).id
    const empty = (name: string) => ({ name, started: [], queued: 0 })
    const status = await json<RqStatus>(RQ)
    expect(status.queues).toMatchObject({ [`ds:${dsId}`]: empty(`ds:${dsId}`), [`ds:${other}`]: empty(`ds:${other}`) })
    expect(status.queues.default).toMatchObject({ name: 'default', queued: expect.any(Number) })
    expect(Object.keys(status.queues)).toEqual(Object.keys(status.queues).sort())
    const system = await json<SystemStatus>('/status.json')
    expect(system.manager.queues).toMatchObject({ [`ds:${dsId}`]: { size: 0 }, [`ds:${other}`]: { size: 0 }, default: { size: expect.any(Number) } })
    expect((await admin.request('DELETE', `/api/data_sources/${other}`)).status).toBeLessThan(300)
    expect(Object.keys((await json<RqStatus>(RQ)).queues)).not.toContain(`ds:${other}`)
  })

  it('lists a running execution as started, with its meta, and the worker as busy on it', async () => {
    // it waits for a lock the test holds, so it is still running when looked at; then it sleeps 2 s of working time
    const lock = await holdLock(t.db.sql)
    const { job } = await (await run(lock.query('pg_sleep(2) as slept'))).json()
    expect(job.status).toBeLessThan(3)
    const runs = (q: QueueJson) => q.started.some((j) => j.id === job.id)
    const status = await until((b) => Object.values(b.queues).some(runs)).finally(() => lock.release())
    const [queue] = Object.values(status.queues).filter(runs)
    expect(queue.name).toBe(`ds:${dsId}`)
    expect(queue.started).toEqual([{
      id: job.id, name: 'execute_query', origin: queue.name, enqueued_at: expect.any(String), started_at: expect.any(String),
      meta: { query_id: null, org_id: orgId, data_source_id: dsId, user_id: adminId, scheduled: false },
    }])
    expect(status.workers).toEqual([{
      name: expect.any(String), hostname: expect.any(String), pid: process.pid, queues: 'all', state: 'busy',
      last_heartbeat: expect.any(String), birth_date: expect.any(String), current_job: `${job.id} (execute_query)`,
      successful_jobs: 0, failed_jobs: 0, total_working_time: 0,
    }])
  })

  it('counts what each worker finished, and shows it idle afterwards', async () => {
    await run('select * from no_such_table_for_monitoring')
    const { workers: [w] } = await until((b) =>
      b.workers[0]?.state === 'idle' && b.workers[0].successful_jobs === 1 && b.workers[0].failed_jobs === 1)
    expect(w.current_job).toBeNull()
    expect(w.total_working_time).toBeGreaterThanOrEqual(1.9)
  })

  it('reports the live worker on the status page', async () => {
    const status = await json<SystemStatus>('/status.json')
    expect(status.workers).toHaveLength(1)
    expect(status.manager.started_at).toBe(status.workers[0].birth_date)
    expect(status.query_results_count).toBe(1)
    expect(status.unused_query_results_count).toBe(0)
  })
})

describe('with the worker stopped', () => {
  beforeAll(async () => {
    await worker!.stop()
    worker = undefined
  })

  it('counts a job that waits for a worker as queued', async () => {
    const { job } = await (await run('select 2 as waiting')).json()
    expect(job.status).toBe(1)
    const [{ queue }] = await t.db.sql<{ queue: string }[]>`select queue from executions where id = ${job.id}`
    const status = await json<RqStatus>(RQ)
    expect(status.queues[queue]).toEqual({ name: queue, started: [], queued: 1 })
    expect(status.workers).toEqual([])
    const system = await json<SystemStatus>('/status.json')
    expect(system.manager.queues[queue]).toEqual({ size: 1 })
    expect(system.manager.started_at).toBeNull()
  })

  it('lists the jobs that wait, the longest-waiting first, an execution with what the Queries tab shows', async () => {
    const { job } = await (await run('select 4 as waiting_too')).json()
    await t.db.sql`select graphile_worker.add_job('cleanup_sessions', '{}'::json)`
    const { queued_jobs: waiting } = await json<RqStatus & { queued_jobs: WorkerJobJson[] }>(RQ)
    const execution = waiting.find((j) => j.id === job.id)
    expect(execution).toEqual({
      id: job.id, name: 'execute_query', origin: `ds:${dsId}`, enqueued_at: expect.any(String), started_at: null,
      meta: { query_id: null, org_id: orgId, data_source_id: dsId, user_id: adminId, scheduled: false },
    })
    expect(waiting.filter((j) => j.name === 'execute_query').map((j) => j.enqueued_at)).toEqual(
      waiting.filter((j) => j.name === 'execute_query').map((j) => j.enqueued_at).sort())
    expect(waiting.find((j) => j.name === 'cleanup_sessions')).toEqual({
      id: expect.any(String), name: 'cleanup_sessions', origin: 'default', enqueued_at: expect.any(String), started_at: null, meta: {},
    })
  })

  it('lists scheduled queries that are due or refreshing now, newest first', async () => {
    const due = await createQuery({ name: 'Due', schedule: hourly, tags: ['kpi'] })
    await t.db.sql`update queries set schedule_next_at = now() - interval '1 hour' where id = ${due}`
    const later = await createQuery({ name: 'Later', schedule: hourly })
    await t.db.sql`update queries set schedule_next_at = now() + interval '1 hour' where id = ${later}`
    await createQuery({ name: 'Unscheduled' })
    const archived = await createQuery({ name: 'Archived', schedule: hourly })
    expect((await admin.request('DELETE', `/api/queries/${archived}`)).status).toBeLessThan(300)
    const refreshing = await createQuery({ name: 'Refreshing', schedule: hourly, query: 'select 3' })
    await t.db.sql`update queries set schedule_next_at = now() + interval '1 hour' where id = ${refreshing}`
    await t.db.sql`
      insert into executions (org_id, data_source_id, query_id, user_id, query_hash, query_text, scheduled, queue)
      values (${orgId}, ${dsId}, ${refreshing}, ${adminId}, 'refreshing-now', 'select 3', true, ${`ds:${dsId}`})`

    const before = Date.now()
    const body = await json<Outdated>('/api/admin/queries/outdated')
    expect(body.queries.map((q) => q.id)).toEqual([refreshing, due])
    expect(new Date(body.updated_at).getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(body.queries[1]).toMatchObject({
      id: due, name: 'Due', tags: ['kpi'], is_draft: true, is_archived: false, schedule: { interval: 3600, time: null, day_of_week: null },
      created_at: expect.any(String), runtime: null, retrieved_at: null, user: { id: adminId, name: ADMIN.name },
    })
    expect(body.queries[1].user).not.toHaveProperty('api_key')
  })

  it('counts queries, outdated queries and the last scheduled run on the status page', async () => {
    const before = await json<SystemStatus>('/status.json')
    await createQuery({ name: 'One more' })
    const after = await json<SystemStatus>('/status.json')
    expect(after.queries_count).toBe(before.queries_count + 1)
    expect(after).toMatchObject({ version: VERSION, dashboards_count: 0, widgets_count: 0, manager: { outdated_queries_count: 2 } })
    const [{ created_at }] = await t.db.sql<{ created_at: Date }[]>`select max(created_at) as created_at from executions where scheduled`
    expect(after.manager.last_refresh_at).toBe(created_at.toISOString())
    const [[resultsName, resultsSize], [dbName, dbSize]] = after.database_metrics.metrics
    expect([resultsName, dbName]).toEqual(['Query Results Size', 'Sightline DB Size'])
    expect(resultsSize).toBeGreaterThan(0)
    expect(dbSize).toBeGreaterThan(resultsSize)
  })

  it('lists a locked job that is not an execution under its queue, and its worker as busy on it', async () => {
    const id = await createQuery({ name: 'Planned', schedule: hourly })
    await t.db.sql`insert into worker_heartbeats (worker_id, hostname, pid, concurrency) values ('pool-elsewhere', 'other-host', 4242, 1)`
    // what graphile-worker does when a worker takes a job; the public view is read-only
    const [{ jobId }] = await t.db.sql<{ jobId: number }[]>`
      update graphile_worker._private_jobs set locked_at = now(), locked_by = 'pool-elsewhere'
       where key = ${`refresh:${id}`} returning id as "jobId"`
    const status = await json<RqStatus>(RQ)
    expect(status.queues.default.started).toEqual([{
      id: String(jobId), name: 'refresh_query', origin: 'default', enqueued_at: expect.any(String), started_at: expect.any(String), meta: {},
    }])
    expect(status.workers).toEqual([expect.objectContaining({
      name: 'pool-elsewhere', hostname: 'other-host', pid: 4242, state: 'busy', current_job: `${jobId} (refresh_query)`,
    })])
  })
})
