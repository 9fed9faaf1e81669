import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, runJobs } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from '../api/queries-fixture.ts'

/**
 * A member reaching rows of a source their groups do not give them through the Query Results source: by referencing
 * a query on it, by reading a result someone else's Query Results run stored (cached, latest, by id), or with a query
 * key or a dashboard's share token, which are no user and never run nor read a Query Results query.
 */
let f: QueryFixture
let results: number
let hidden: QueryJson
let open: QueryJson
let joined: QueryJson
let openOnly: QueryJson
const SECRET = 'zz_salary_marker'

const json = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const keyed = (key: string, path: string, init: RequestInit = {}) =>
  f.t.app.request(path, { ...init, headers: { authorization: `Key ${key}`, 'content-type': 'application/json', ...init.headers } })

async function runSaved(client: Client, q: QueryJson, maxAge = 0) {
  const res = await client.post(`/api/queries/${q.id}/results`, { max_age: maxAge })
  await runJobs(f.t)
  return outcomeOf(client, res)
}
async function runAdhoc(client: Client, query: string, maxAge = 0) {
  const res = await client.post('/api/query_results', { query, data_source_id: results, max_age: maxAge })
  await runJobs(f.t)
  return outcomeOf(client, res)
}

beforeAll(async () => {
  f = await queryFixture()
  results = (await json(f.admin.post('/api/data_sources', { name: 'Results', type: 'results', options: {} }))).id
  hidden = await newQuery(f.admin, { data_source_id: f.shared, name: 'Salaries', query: `select '${SECRET}' as person, 1 as id` })
  open = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Teams', query: "select 1 as id, 'Ops' as team" })
  joined = await newQuery(f.admin, {
    data_source_id: results, name: 'Joined', query: `select h.person, o.team from query_${hidden.id} h join query_${open.id} o on o.id = h.id`,
  })
  openOnly = await newQuery(f.admin, { data_source_id: results, name: 'Open only', query: `select team from query_${open.id}` })
  await json(f.admin.post(`/api/queries/${joined.id}`, { is_draft: false, version: joined.version }))
})
afterAll(() => f?.t.close())

describe('the Query Results source and who may read what', () => {
  it('a member may reference a query on a source they may read, and is refused one on a source they may not', async () => {
    expect((await runAdhoc(f.bo, `select team from query_${open.id}`)).result.data.rows).toEqual([{ team: 'Ops' }])
    expect(await runAdhoc(f.bo, `select * from query_${hidden.id}`)).toEqual({ error: `You do not have access to query id ${hidden.id}.` })
    expect(await runAdhoc(f.bo, `select * from cached_query_${hidden.id}`)).toEqual({ error: `You do not have access to query id ${hidden.id}.` })
  })

  it('a stored result of a Query Results query is refused to a member who cannot read one of its sources', async () => {
    const stored = (await runSaved(f.admin, joined)).result
    expect(stored.data.rows).toEqual([{ person: SECRET, team: 'Ops' }])
    // the admin's result by id, as the latest of the query, and as a cached answer to the same text
    expect((await f.bo.get(`/api/query_results/${stored.id}`)).status).toBe(404)
    expect((await f.bo.get(`/api/query_results/${stored.id}.csv`)).status).toBe(404)
    for (const path of [`/api/queries/${joined.id}/results`, `/api/queries/${joined.id}/results.csv`, `/api/queries/${joined.id}/results/${stored.id}.json`]) {
      const res = await f.bo.get(path)
      expect([403, 404], path).toContain(res.status)
      expect(await res.text()).not.toContain(SECRET)
    }
    const cached = await runSaved(f.bo, joined, -1)
    expect(cached).toEqual({ error: `You do not have access to query id ${hidden.id}.` })
    const adhoc = await runAdhoc(f.bo, joined.query as string, -1)
    expect(adhoc).toEqual({ error: `You do not have access to query id ${hidden.id}.` })
    // a member who may read both sources reads it
    expect((await f.admin.get(`/api/query_results/${stored.id}`)).status).toBe(200)
  })

  it('a query key never runs nor reads a Query Results query', async () => {
    await runSaved(f.admin, openOnly)
    const key = openOnly.api_key
    const run = await keyed(key, `/api/queries/${openOnly.id}/results`, { method: 'POST', body: JSON.stringify({ max_age: 0 }) })
    expect(run.status).toBe(403)
    expect((await run.json()).message).toMatch(/query key or a shared dashboard/)
    for (const path of [`/api/queries/${openOnly.id}/results`, `/api/queries/${openOnly.id}/results.csv`]) {
      expect((await keyed(key, path)).status, path).toBe(403)
    }
  })

  it("a dashboard's share token never runs nor reads a Query Results query", async () => {
    await runSaved(f.admin, openOnly)
    const q = await json(f.admin.get(`/api/queries/${openOnly.id}`))
    const board = await json(f.admin.post('/api/dashboards', { name: 'Teams board' }))
    const widget = await json(f.admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: q.visualizations[0].id, options: {} }))
    await json(f.admin.post(`/api/dashboards/${board.id}`, { is_draft: false }))
    const token = (await json(f.admin.post(`/api/dashboards/${board.id}/share`))).api_key as string
    const run = await keyed(token, `/api/queries/${openOnly.id}/results`, { method: 'POST', body: JSON.stringify({ max_age: 0 }) })
    expect([403, 404]).toContain(run.status)
    expect((await keyed(token, `/api/queries/${openOnly.id}/results.json`)).status).not.toBe(200)
    const drawing = await keyed(token, `/api/widgets/${widget.id}/drawing`)
    expect([403, 404]).toContain(drawing.status)
    expect(await drawing.text()).not.toContain('Ops')
  })
})
