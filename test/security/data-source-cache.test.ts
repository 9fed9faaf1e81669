import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, runJobs, type TestApp } from '../helpers/app.ts'
import { queryFixture, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * Every web process keeps the data sources its run requests check, with the groups that may use them. Taking a
 * source from a member's groups (or making it view-only for them) refuses their next run at once in every process,
 * whether an admin did it through the API or something else wrote it (an import in a worker, psql): no process
 * goes on answering from what it remembered.
 */
let f: QueryFixture
let other: TestApp
/** Bo, signed in, talking to the second process. */
let boOther: Client
let defaultGroup: number

const TEXT = 'select 7 as seven'
/** Bo's run of new text on the warehouse, answered from the stored result: the status each process gives. */
const run = async (c: Client) => (await c.post('/api/query_results', { data_source_id: f.warehouse, query: TEXT, max_age: -1 })).status
const both = async () => ({ first: await run(f.bo), other: await run(boOther) })

/** Resolves once both processes have heard that the warehouse changed. */
function heardEverywhere(): Promise<unknown> {
  return Promise.all([f.t, other].map((t) => new Promise<void>((resolve) => t.deps.bus.on('data_source', (id) => id === String(f.warehouse) && resolve()))))
}

async function grant(viewOnly = false) {
  const heard = heardEverywhere()
  await f.t.db.sql`insert into data_source_groups (data_source_id, group_id, view_only) values (${f.warehouse}, ${defaultGroup}, ${viewOnly})
                   on conflict (data_source_id, group_id) do update set view_only = excluded.view_only`
  await heard
}

beforeAll(async () => {
  f = await queryFixture()
  // a second web process on the same database: it hears of changes only through the bus
  other = await createTestApp({}, { db: f.t.db })
  boOther = new Client(other.app)
  boOther.cookies = new Map(f.bo.cookies)
  ;[{ id: defaultGroup }] = await f.t.db.sql<{ id: number }[]>`select id from groups where name = 'default'`
  expect((await f.bo.post('/api/query_results', { data_source_id: f.warehouse, query: TEXT, max_age: 0 })).status).toBeLessThan(300)
  await runJobs(f.t)
}, 60_000)
afterAll(async () => {
  await other?.deps.bus.stop()
  await other?.deps.executionsDone.stop()
  await f?.t.close()
})

describe('data sources remembered by web processes', () => {
  it("refuses a member's runs at once in every process once an admin takes the source from their group", async () => {
    expect(await both()).toEqual({ first: 200, other: 200 })
    expect(await run(boOther)).toBe(200)
    // both processes answered from what they remember
    expect(f.t.deps.dataSources.get(String(f.warehouse))).toBeDefined()
    expect(other.deps.dataSources.get(String(f.warehouse))).toBeDefined()

    const heard = heardEverywhere()
    expect((await f.admin.request('DELETE', `/api/groups/${defaultGroup}/data_sources/${f.warehouse}`)).status).toBe(200)
    // the process that made the change refuses before its answer has gone out
    expect(await run(f.bo)).toBe(403)
    await heard
    expect(await both()).toEqual({ first: 403, other: 403 })
  })

  it('refuses them as soon as the source turns view-only for their group', async () => {
    await grant()
    expect(await both()).toEqual({ first: 200, other: 200 })
    const heard = heardEverywhere()
    expect((await f.admin.post(`/api/groups/${defaultGroup}/data_sources/${f.warehouse}`, { view_only: true })).status).toBe(200)
    await heard
    expect(await both()).toEqual({ first: 403, other: 403 })
  })

  it('hears of a change written outside any web process (an import, psql) as well', async () => {
    await grant()
    expect(await both()).toEqual({ first: 200, other: 200 })
    const heard = heardEverywhere()
    await f.t.db.sql`delete from data_source_groups where data_source_id = ${f.warehouse} and group_id = ${defaultGroup}`
    await heard
    expect(await both()).toEqual({ first: 403, other: 403 })
  })

  it('forgets a deleted source everywhere', async () => {
    await grant()
    expect(await both()).toEqual({ first: 200, other: 200 })
    const heard = heardEverywhere()
    await f.t.db.sql`update queries set data_source_id = null where data_source_id = ${f.warehouse}`
    expect((await f.admin.request('DELETE', `/api/data_sources/${f.warehouse}`)).status).toBe(204)
    await heard
    expect(await both()).toEqual({ first: 404, other: 404 })
  })
})
