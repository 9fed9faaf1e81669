import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runJobs, type Client } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * Long answers are written as they are read from Sightline's database: the unpaged GET /api/alerts and the download
 * of a large result. A member who opens many of them and stops reading must not hold the database's connections while
 * the answers wait, or everyone else's requests queue behind them (the test app's pool has 5).
 */
const STALLED = 12
let f: QueryFixture
let bigResult = 0
beforeAll(async () => {
  f = await queryFixture()
  const query = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1 as n', name: 'Watched' })).id
  const [bo] = await f.t.db.sql<{ id: number; org_id: number }[]>`select id, org_id from users where email = 'bo@example.com'`
  // enough alerts that one answer is many batches
  await f.t.db.sql`
    insert into alerts (org_id, user_id, query_id, name, options)
    select ${bo.org_id}, ${bo.id}, ${query}, 'Alert ' || g, '{"column": "n", "op": ">", "value": 1}' from generate_series(1, 3000) g`
  // a result of many chunks, read by ranges of binary COPY
  const started = await (await f.bo.post('/api/query_results', {
    data_source_id: f.warehouse, query: "select g, md5(g::text) as hash from generate_series(1, 120000) g", max_age: 0,
  })).json()
  if (!started.query_result) await runJobs(f.t)
  bigResult = started.query_result?.id ?? (await (await f.bo.get(`/api/jobs/${started.job.id}`)).json()).job.query_result_id
  expect(bigResult).toBeGreaterThan(0)
}, 120_000)
afterAll(() => f?.t.close())

/** `STALLED` answers of `path`, each read for its first bytes and then left. */
async function stall(client: Client, path: string) {
  return await Promise.all(Array.from({ length: STALLED }, async () => {
    const res = await client.get(path)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    await reader.read()
    return reader
  }))
}

/** What another member does meanwhile: lists that read the database answer. */
async function othersStillServed() {
  expect((await f.cleo.get('/api/queries')).status).toBe(200)
  expect((await f.cleo.get('/api/dashboards')).status).toBe(200)
}

describe('answers nobody reads', () => {
  it('of GET /api/alerts leave the database to everyone else', async () => {
    const stalled = await stall(f.bo, '/api/alerts')
    try {
      await othersStillServed()
      const whole = await f.cleo.get('/api/alerts')
      expect(whole.status).toBe(200)
      expect(await whole.json()).toHaveLength(3000)
    } finally {
      await Promise.all(stalled.map((reader) => reader.cancel()))
    }
  })

  it('of a large result downloaded as CSV leave the database to everyone else', async () => {
    const stalled = await stall(f.bo, `/api/query_results/${bigResult}.csv`)
    try {
      await othersStillServed()
      const whole = await (await f.bo.get(`/api/query_results/${bigResult}.csv`)).text()
      expect(whole.trim().split('\n')).toHaveLength(120_001)
    } finally {
      await Promise.all(stalled.map((reader) => reader.cancel()))
    }
  })
})
