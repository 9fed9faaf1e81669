import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'
import { stopProcess, type SightlineProcess } from '../helpers/process.ts'
import { eventually } from '../helpers/wait.ts'
import { workerProcesses } from '../helpers/workers.ts'

/*
 * Worker processes killed with SIGKILL in the middle of a slow PostgreSQL query (the source is the test's own
 * database, so its sessions can be watched in pg_stat_activity). Sequences make a second run visible: `*_starts` is
 * advanced as a run starts (so only the first run sleeps), `*_ends` only once the sleep is over. The web process is
 * the test app itself, polling as a browser does. Short bounds come from the settings; every wait is for an event.
 */
const DEAD_AFTER = 4
const WAIT_MS = 120_000

describe('a worker killed in the middle of a query', () => {
  let t: TestApp
  let admin: Client
  let workers: ReturnType<typeof workerProcesses>

  beforeAll(async () => {
    t = await createTestApp({ workerDeadAfterSeconds: DEAD_AFTER })
    admin = await setUp(t.app)
    workers = workerProcesses(t, DEAD_AFTER)
    for (const name of ['a', 'b', 'c', 'd']) await t.db.sql.unsafe(`create sequence ${name}_starts; create sequence ${name}_ends`)
    await t.db.sql`create table c_log (n int)`
  })
  afterAll(async () => {
    await workers?.close()
    await t.db.sql`select pg_terminate_backend(pid) from pg_stat_activity where query like '%crash-%' and pid <> pg_backend_pid()`
    await t.close()
  })

  const worker = () => workers.start()
  const kill = (w: SightlineProcess) => workers.kill(w)
  const source = async (name: string, options = pgOptionsFor(t)) =>
    (await (await admin.post('/api/data_sources', { name, type: 'pg', options })).json()).id as number
  const submit = async (dsId: number, query: string) => {
    const answer = await (await admin.post('/api/query_results', { data_source_id: dsId, query, max_age: 0 })).json()
    expect(answer.job, JSON.stringify(answer)).toBeDefined()
    return answer.job.id as string
  }
  const job = async (id: string) => (await (await admin.get(`/api/jobs/${id}`)).json()).job
  /** Polls as the browser does until `done` holds of the job. */
  const pollUntil = async (id: string, done: (j: any) => boolean) => {
    const started = Date.now()
    for (;;) {
      const now = await job(id)
      if (done(now)) return now
      if (Date.now() - started > WAIT_MS) throw new Error(`job ${id} still ${JSON.stringify(now)} after ${WAIT_MS} ms`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  /** The backend its statement runs on, once the worker running it has written it down. */
  const orphanOf = async (id: string) => {
    const started = Date.now()
    for (;;) {
      const [row] = await t.db.sql<{ cancel_handle: { pid: number } | null }[]>`select cancel_handle from executions where id = ${id} and status = 2`
      if (row?.cancel_handle) return row.cancel_handle.pid
      if (Date.now() - started > WAIT_MS) throw new Error(`execution ${id} never said where it runs`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const alive = async (pid: number) => (await t.db.sql`select 1 from pg_stat_activity where pid = ${pid}`).length > 0
  const execution = async (id: string) => (await t.db.sql<{ attempts: number }[]>`select attempts from executions where id = ${id}`)[0]
  const advanced = async (sequence: string) =>
    (await t.db.sql.unsafe<{ is_called: boolean; last_value: number }[]>(`select is_called, last_value from ${sequence}`))[0]

  it('stops the orphaned statement before running the query again, so it never runs twice', async () => {
    const dsId = await source('A')
    const pair = await Promise.all([worker(), worker()])
    const id = await submit(dsId, `select pg_sleep(case when nextval('a_starts') = 1 then 600 else 0 end), 'crash-a';
      select nextval('a_ends') as ends,
             (select count(*)::int from pg_stat_activity where query like '%crash-' || 'a%' and pid <> pg_backend_pid()) as others`)
    const orphan = await orphanOf(id)
    // kill the worker running it; the other one is alive to run it again
    const [{ pid }] = await t.db.sql<{ pid: number }[]>`
      select h.pid from executions e join worker_heartbeats h on h.worker_id = e.worker_id where e.id = ${id}`
    const running = pair.find((w) => w.child.pid === pid)!
    expect(running).toBeDefined()
    await kill(running)
    expect(await alive(orphan)).toBe(true) // the statement outlives its worker

    const done = await pollUntil(id, (j) => j.status >= 3)
    expect(done).toMatchObject({ status: 3, error: '' })
    const result = await (await admin.get(`/api/query_results/${done.query_result_id}`)).json()
    // the run again saw no other session running the query: the orphan was gone before it started
    expect(result.query_result.data.rows).toEqual([{ ends: 1, others: 0 }])
    expect(await alive(orphan)).toBe(false)
    expect(await execution(id)).toMatchObject({ attempts: 2 })
    expect(await advanced('a_ends')).toMatchObject({ is_called: true, last_value: 1 })
    await stopProcess(pair.find((w) => w !== running)!)
  }, 240_000)

  it('fails the query, with its statement stopped, when no worker is left to run it again', async () => {
    const dsId = await source('B')
    const only = await worker()
    const id = await submit(dsId, `select pg_sleep(case when nextval('b_starts') = 1 then 600 else 0 end), 'crash-b';
      select nextval('b_ends')`)
    const orphan = await orphanOf(id)
    await kill(only)

    const failed = await pollUntil(id, (j) => j.status !== 2 && j.status !== 1)
    expect(failed).toMatchObject({ status: 4, error: expect.stringMatching(/no worker is running to run it again/) })
    expect(await alive(orphan)).toBe(false)
    expect(await advanced('b_ends')).toMatchObject({ is_called: false })
    expect(await execution(id)).toMatchObject({ attempts: 1 })
  }, 240_000)

  it('does not run again a query that may have changed data when its statement could not be stopped', async () => {
    const dsId = await source('C')
    const first = await worker()
    const id = await submit(dsId, `select pg_sleep(case when nextval('c_starts') = 1 then 600 else 0 end), 'crash-c';
      insert into c_log values (1) returning n`)
    const orphan = await orphanOf(id)
    await kill(first)
    // the source now points at a closed port: the orphan cannot be reached to stop it
    const closed = await freePort()
    expect((await admin.post(`/api/data_sources/${dsId}`, { name: 'C', type: 'pg', options: { ...pgOptionsFor(t), port: closed } })).status).toBe(200)
    await worker() // a worker is alive: it is the risk of a double write, not the lack of a worker, that stops the rerun

    const failed = await pollUntil(id, (j) => j.status !== 2 && j.status !== 1)
    expect(failed).toMatchObject({ status: 4, error: expect.stringMatching(/it was not run again because it may have changed data/) })
    expect(await execution(id)).toMatchObject({ attempts: 1 })
    expect(await advanced('c_starts')).toMatchObject({ last_value: 1 })
    // PostgreSQL ends the orphan itself once it notices its client has gone (the statement may write, so it runs in
    // a transaction that checks for its client): what it wrote is rolled back with it
    await eventually(() => alive(orphan), (yes) => !yes, 'the orphan ends by itself', WAIT_MS)
    expect(await t.db.sql`select * from c_log`).toEqual([])
    await workers.stopAll()
  }, 240_000)

  it('fails a schema refresh left untouched for 10 minutes, so its poller sees an end even with no worker', async () => {
    const dsId = await source('E')
    const answer = await (await admin.get(`/api/data_sources/${dsId}/schema?refresh=true`)).json()
    expect(await job(answer.job.id)).toMatchObject({ status: 1 })
    // as if its worker had died 11 minutes ago
    await t.db.sql`update jobs set updated_at = now() - interval '11 minutes' where id = ${answer.job.id}`
    expect(await job(answer.job.id)).toMatchObject({ status: 4, error: expect.stringMatching(/No worker finished this job/) })
  })

  it('keeps a query queued while no worker runs, tells its poller so, and runs it once a worker starts', async () => {
    const dsId = await source('D')
    const id = await submit(dsId, `select nextval('d_ends') as n, 'crash-d'`)
    const told = await pollUntil(id, (j) => j.status !== 1 || !!j.waiting_reason)
    expect(told).toMatchObject({ status: 1, waiting_reason: expect.stringMatching(/No worker is running/) })

    await worker()
    const done = await pollUntil(id, (j) => j.status >= 3)
    expect(done).toMatchObject({ status: 3, error: '' })
    expect(done.waiting_reason).toBeUndefined()
  }, 240_000)
})
