import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WorkerJobJson, RqStatusJson } from '../../src/shared/monitoring.ts'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'
import { freezableProxy, type FreezableProxy } from '../helpers/tcp-proxy.ts'
import { eventually } from '../helpers/wait.ts'
import { workerProcesses } from '../helpers/workers.ts'

/*
 * A worker killed with SIGKILL while it runs the only query its source lets run at once, with a second query waiting
 * for that slot. The source is the test's own database reached through a relay the test freezes once the worker is
 * dead, so the recovery's stop of the orphaned statement hangs for as long as the test wants: the slot must be free
 * (the waiting query started) while that recovery is still going on, and the queue page must show the lost run.
 */
const DEAD_AFTER = 4
const WAIT_MS = 120_000

describe("a dead worker's running query", () => {
  let t: TestApp
  let admin: Client
  let workers: ReturnType<typeof workerProcesses>
  let proxy: FreezableProxy

  beforeAll(async () => {
    t = await createTestApp({ workerDeadAfterSeconds: DEAD_AFTER })
    admin = await setUp(t.app)
    workers = workerProcesses(t, DEAD_AFTER)
    const pg = pgOptionsFor(t)
    proxy = await freezableProxy({ host: pg.host, port: pg.port })
    await t.db.sql`create sequence lost_starts`
  })
  afterAll(async () => {
    proxy?.thaw()
    await workers?.close()
    await proxy?.close()
    await t.db.sql`select pg_terminate_backend(pid) from pg_stat_activity where query like '%lost-x%' and pid <> pg_backend_pid()`
    await t.close()
  })

  const submit = async (dsId: number, query: string) => {
    const answer = await (await admin.post('/api/query_results', { data_source_id: dsId, query, max_age: 0 })).json()
    expect(answer.job, JSON.stringify(answer)).toBeDefined()
    return answer.job.id as string
  }
  const job = async (id: string) => (await (await admin.get(`/api/jobs/${id}`)).json()).job
  const rqStatus = async () => (await (await admin.get('/api/admin/queries/rq_status')).json()) as RqStatusJson
  const started = (status: RqStatusJson, queue: string): WorkerJobJson[] => status.queues[queue]?.started ?? []
  const execution = async (id: string) =>
    (await t.db.sql<{ status: number; worker_id: string | null; dispatched: boolean }[]>`
      select status, worker_id, dispatched from executions where id = ${id}`)[0]

  it('releases its slot as its recovery starts and shows it as "worker lost" until the recovery ends', async () => {
    const options = { ...pgOptionsFor(t), host: '127.0.0.1', port: proxy.port, query_concurrency: 1 }
    const dsId = (await (await admin.post('/api/data_sources', { name: 'One at a time', type: 'pg', options })).json()).id as number
    const queue = `ds:${dsId}`
    const first = await workers.start()
    const lost = await submit(dsId, `select pg_sleep(case when nextval('lost_starts') = 1 then 600 else 0 end), 'lost-x' as x`)
    await eventually(() => execution(lost), (e) => e?.status === 2, 'the first query running', WAIT_MS)
    const waiting = await submit(dsId, `select 'lost-y' as y`)
    expect(await job(waiting)).toMatchObject({ status: 1 }) // the source's only slot is taken

    await workers.kill(first)
    proxy.freeze() // from now on the orphaned statement cannot be reached to stop it
    await workers.start()

    // the waiting query is let in while the lost one is still being recovered
    const during = await eventually(rqStatus, (s) => started(s, queue).some((j) => j.id === waiting), 'the waiting query started', WAIT_MS)
    expect(started(during, queue).find((j) => j.id === lost)).toMatchObject({ id: lost, worker_lost: true })
    expect(await execution(lost)).toMatchObject({ status: 2, worker_id: expect.stringMatching(/^recovery:/) })
    const page = await (await admin.get('/admin/queries/jobs?tab=queries')).text()
    expect(page).toContain('worker lost')
    // a running query whose worker is alive is not lost
    expect(started(during, queue).find((j) => j.id === waiting)?.worker_lost).toBeUndefined()

    proxy.thaw()
    // the orphan stopped, the lost query runs again once the slot is free, and both end
    for (const id of [waiting, lost]) {
      expect(await eventually(() => job(id), (j) => j.status >= 3, `the end of ${id}`, WAIT_MS)).toMatchObject({ status: 3, error: '' })
    }
    expect(started(await rqStatus(), queue)).toEqual([])
  }, 240_000)
})
