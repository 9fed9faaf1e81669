import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshQuery, restartBrokenSchedules, scheduledRunEnded } from '../../src/schedules/index.ts'
import { Client, createTestApp, pgOptionsFor, runJobs, setUp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
let dsId: number

const hourly = { interval: 3600, time: null, day_of_week: null, until: null }

async function createScheduled(text: string, schedule: unknown = hourly, options: Record<string, unknown> = {}) {
  const res = await admin.post('/api/queries', { data_source_id: dsId, query: text, name: text, schedule, options })
  expect(res.status).toBe(200)
  return (await res.json()).id as number
}

const plannedJob = async (id: number) =>
  (await t.db.sql<{ run_at: Date }[]>`select run_at from graphile_worker.jobs where key = ${`refresh:${id}`}`)[0]
const queryRow = async (id: number) =>
  (await t.db.sql<{ schedule_next_at: Date | null; schedule_failures: number; latest_query_data_id: number | null }[]>`
    select schedule_next_at, schedule_failures, latest_query_data_id from queries where id = ${id}`)[0]

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
})
afterAll(() => t.close())

describe('scheduled refreshes', () => {
  it('plans a query with a schedule and no result to refresh at once, as one keyed job', async () => {
    const before = Date.now()
    const id = await createScheduled('select 1 as due_now')
    const row = await queryRow(id)
    expect(row.schedule_next_at!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(row.schedule_next_at!.getTime()).toBeLessThanOrEqual(Date.now() + 1000)
    expect((await plannedJob(id)).run_at.getTime()).toBe(row.schedule_next_at!.getTime())
  })

  it('runs the due refresh with default parameter values, stores the result, and plans the next one interval later', async () => {
    const id = await createScheduled("select '{{ who }}' as who", hourly, {
      parameters: [{ name: 'who', title: 'Who', type: 'enum', enumOptions: 'Ada\nBo', value: 'Bo' }],
    })
    const due = (await queryRow(id)).schedule_next_at!
    await refreshQuery({ sql: t.db.sql, secretKey: t.deps.secretKey }, id, new Date(due.getTime() + 100))
    expect((await queryRow(id)).schedule_next_at!.toISOString()).toBe(new Date(due.getTime() + 3600_000).toISOString())
    const [execution] = await t.db.sql`select * from executions where query_id = ${id} and scheduled`
    expect(execution).toMatchObject({ status: 1, query_text: "select 'Bo' as who" })
    await runJobs(t)
    const row = await queryRow(id)
    expect(row.latest_query_data_id).not.toBeNull()
    const res = await admin.get(`/api/queries/${id}/results.json`)
    expect(res.status).toBe(200)
    const { query_result: r } = await res.json()
    expect(r.data.rows).toEqual([{ who: 'Bo' }])
  })

  it('keeps at most one refresh of a query in flight', async () => {
    const id = await createScheduled('select 2 as once')
    const due = (await queryRow(id)).schedule_next_at!
    const ctx = { sql: t.db.sql, secretKey: t.deps.secretKey }
    await refreshQuery(ctx, id, new Date(due.getTime() + 10))
    await t.db.sql`update queries set schedule_next_at = ${due} where id = ${id}`
    await refreshQuery(ctx, id, new Date(due.getTime() + 20))
    const rows = await t.db.sql`select id from executions where query_id = ${id} and scheduled and status in (1, 2)`
    expect(rows).toHaveLength(1)
  })

  it('refreshes every query due at once from one job: each runs once, and the jobs fetched for the others find nothing to do', async () => {
    const ids = [await createScheduled('select 11 as on_the_hour'), await createScheduled('select 12 as on_the_hour'), await createScheduled('select 13 as on_the_hour')]
    const due = new Date(Date.now() - 1000)
    await t.db.sql`update queries set schedule_next_at = ${due} where id = any(${ids})`
    const ctx = { sql: t.db.sql, secretKey: t.deps.secretKey }
    await refreshQuery(ctx, ids[0], new Date(due.getTime() + 100))
    for (const id of ids) {
      const row = await queryRow(id)
      expect(row.schedule_next_at!.toISOString()).toBe(new Date(due.getTime() + 3600_000).toISOString())
      expect((await plannedJob(id)).run_at.getTime()).toBe(row.schedule_next_at!.getTime())
    }
    // the jobs of the other two, had a worker fetched them meanwhile, run with nothing left due
    await refreshQuery(ctx, ids[1], new Date(due.getTime() + 200))
    await refreshQuery(ctx, ids[2], new Date(due.getTime() + 300))
    const runs = await t.db.sql<{ query_id: number }[]>`select query_id from executions where query_id = any(${ids}) and scheduled order by query_id`
    expect(runs.map((r) => Number(r.query_id))).toEqual(ids)
    expect((await plannedJob(ids[1])).run_at.getTime()).toBe(due.getTime() + 3600_000)
  })

  it('two refreshes racing over the same due queries queue each of them once', async () => {
    const ids: number[] = []
    for (let i = 0; i < 6; i++) ids.push(await createScheduled(`select ${20 + i} as raced`))
    const due = new Date(Date.now() - 1000)
    await t.db.sql`update queries set schedule_next_at = ${due} where id = any(${ids})`
    const ctx = { sql: t.db.sql, secretKey: t.deps.secretKey }
    await Promise.all([refreshQuery(ctx, ids[0], new Date(due.getTime() + 100)), refreshQuery(ctx, ids[5], new Date(due.getTime() + 100))])
    const runs = await t.db.sql<{ query_id: number }[]>`select query_id from executions where query_id = any(${ids}) and scheduled order by query_id`
    expect(runs.map((r) => Number(r.query_id))).toEqual(ids)
    for (const id of ids) expect((await queryRow(id)).schedule_next_at!.getTime()).toBe(due.getTime() + 3600_000)
  })

  it('backs off after failures: the next run moves 2^failures minutes later', async () => {
    const id = await createScheduled('select * from missing_table_for_backoff')
    const due = (await queryRow(id)).schedule_next_at!
    await refreshQuery({ sql: t.db.sql, secretKey: t.deps.secretKey }, id, due)
    const [execution] = await t.db.sql`select * from executions where query_id = ${id}`
    await scheduledRunEnded(t.db.sql, execution as never, { error: 'relation does not exist' })
    await scheduledRunEnded(t.db.sql, { ...execution, id: null } as never, { error: 'again' })
    const row = await queryRow(id)
    expect(row.schedule_failures).toBe(2)
    expect(row.schedule_next_at!.getTime()).toBe(due.getTime() + 3600_000 + 4 * 60_000)
    expect((await plannedJob(id)).run_at.getTime()).toBe(row.schedule_next_at!.getTime())
  })

  it('stops planning when the schedule is cleared or the query archived', async () => {
    const id = await createScheduled('select 3 as stop')
    const { version } = await (await admin.get(`/api/queries/${id}`)).json()
    expect((await admin.post(`/api/queries/${id}`, { schedule: null, version })).status).toBe(200)
    expect((await queryRow(id)).schedule_next_at).toBeNull()
    expect(await plannedJob(id)).toBeUndefined()

    const other = await createScheduled('select 4 as archived')
    expect((await admin.request('DELETE', `/api/queries/${other}`)).status).toBe(200)
    expect((await queryRow(other)).schedule_next_at).toBeNull()
    expect(await plannedJob(other)).toBeUndefined()
  })

  it('restarts a schedule whose job was lost', async () => {
    const id = await createScheduled('select 5 as lost')
    await t.db.sql`select graphile_worker.remove_job(${`refresh:${id}`})`
    await t.db.sql`update queries set schedule_next_at = now() - interval '5 minutes' where id = ${id}`
    expect(await restartBrokenSchedules(t.db.sql)).toBeGreaterThanOrEqual(1)
    expect(await plannedJob(id)).toBeDefined()
  })

  it('refuses malformed schedules', async () => {
    const res = await admin.post('/api/queries', { data_source_id: dsId, query: 'select 1', schedule: { interval: -5 } })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain('interval')
  })
})
