import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanupResults } from '../../worker/tasks/cleanup_results.ts'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { eventually } from '../helpers/wait.ts'

const ROW_CAP = 15_000

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> } | undefined

async function source(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await admin.post('/api/data_sources', { name, type: 'pg', options: { ...pgOptionsFor(t), ...extra } })
  expect(res.status).toBe(200)
  return (await res.json()).id
}

const run = async (dsId: number, query: string) =>
  outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: dsId, query, max_age: 0 }))

beforeAll(async () => {
  t = await createTestApp({ maxResultRows: ROW_CAP })
  admin = await setUp(t.app)
  worker = await startWorkerFor(t, { workerConcurrency: 4 })
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

describe('limits', () => {
  it('keeps results up to the row cap, across chunks, and marks longer ones truncated', async () => {
    const ds = await source('Capped')
    const full = await run(ds, 'select g from generate_series(1, 12000) g')
    expect(full.result.data.rows).toHaveLength(12_000)
    expect(full.result.data.truncated ?? false).toBe(false)
    const cut = await run(ds, 'select g, md5(g::text) as h from generate_series(1, 40000) g')
    expect(cut.result.data.rows).toHaveLength(ROW_CAP)
    expect(cut.result.data.rows.at(-1)).toMatchObject({ g: ROW_CAP })
    expect(cut.result.data.truncated).toBe(true)
    const csv = await (await admin.get(`/api/query_results/${cut.result.id}.csv`)).text()
    expect(csv.trimEnd().split('\r\n')).toHaveLength(ROW_CAP + 1)
  })

  it('stops a query at the source time limit, and at the organization limit', async () => {
    const ds = await source('Impatient', { query_time_limit: 1 })
    const slow = await run(ds, 'select pg_sleep(4)')
    expect(slow.error).toBe('Query exceeded the time limit of 1 s and was stopped.')
    const open = await source('Patient')
    expect((await admin.post('/api/settings/organization', { query_time_limit: 1 })).status).toBe(200)
    try {
      expect((await run(open, 'select pg_sleep(4.2)')).error).toBe('Query exceeded the time limit of 1 s and was stopped.')
    } finally {
      await admin.post('/api/settings/organization', { query_time_limit: 0 })
    }
  })

  it('runs at most query_concurrency executions of a source at once', async () => {
    const serial = await source('One at a time', { query_concurrency: 1 })
    const parallel = await source('Two at a time', { query_concurrency: 2 })
    const running = async (ds: number) => (await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from executions where data_source_id = ${ds} and started_at is not null and finished_at is null`)[0].n
    // both queries wait for a lock the test holds: they run for as long as the test says
    for (const [ds, atOnce] of [[serial, 1], [parallel, 2]]) {
      const lock = await holdLock(t.db.sql)
      try {
        const runs = Promise.all([run(ds, lock.query('1 as a')), run(ds, lock.query('2 as b'))])
        await eventually(() => running(ds), (n) => n === atOnce, `${atOnce} running at once`)
        await lock.release()
        expect((await runs).map((r) => r.error)).toEqual([undefined, undefined])
      } finally {
        await lock.release()
      }
    }
    // one at a time: the second started only once the first had finished
    const [a, b] = await t.db.sql<{ started_at: Date; finished_at: Date }[]>`
      select started_at, finished_at from executions where data_source_id = ${serial} order by started_at`
    expect(b.started_at >= a.finished_at).toBe(true)
  })
})

describe('retention', () => {
  it('deletes unused results past the retention, keeping every query\'s latest', async () => {
    const ds = await source('Old results')
    const kept = await (await admin.post('/api/queries', { data_source_id: ds, query: 'select 1 as kept' })).json()
    const keptResult = (await run(ds, 'select 1 as kept')).result
    const unused = (await run(ds, 'select 2 as unused')).result
    await t.db.sql`update query_results set retrieved_at = now() - interval '30 days' where id in ${t.db.sql([keptResult.id, unused.id])}`
    await t.db.sql`update executions set finished_at = now() - interval '30 days' where query_result_id in ${t.db.sql([keptResult.id, unused.id])}`
    await cleanupResults(t.db.sql, 7)({}, {} as never)
    const left = await t.db.sql`select id from query_results where id in ${t.db.sql([keptResult.id, unused.id])}`
    expect(left.map((r) => r.id)).toEqual([keptResult.id])
    expect((await (await admin.get(`/api/queries/${kept.id}`)).json()).latest_query_data_id).toBe(keptResult.id)
    expect(await t.db.sql`select 1 from query_result_chunks where result_id = ${unused.id}`).toHaveLength(0)
  })
})
