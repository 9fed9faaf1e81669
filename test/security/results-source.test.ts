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
    // the public page and its JSON show the widget restricted, though the admin who shared it may read it
    const page = await f.t.app.request(`/public/dashboards/${token}`)
    expect(page.status).toBe(200)
    expect(await page.text()).not.toContain('Ops')
    const shape = await json(Promise.resolve(keyed(token, `/api/dashboards/public/${token}`)))
    expect(shape.widgets.find((w: { id: number }) => w.id === widget.id)).toMatchObject({ restricted: true })
  })
})

/**
 * Every other way a stored result reaches a person: a dashboard (its JSON, its page, a widget's drawing, cached or
 * not), an embed, a dropdown, an alert and its preview, the schema browser. A member who may open each of them but may
 * not read every source a Query Results result read gets nothing of its rows.
 */
describe('stored Query Results results on every other path', () => {
  let board: number
  let tableWidget: number
  let paramWidget: number
  let paramJoined: QueryJson
  const vizOf = async (q: QueryJson) => (await json(f.admin.get(`/api/queries/${q.id}`))).visualizations[0].id as number

  beforeAll(async () => {
    // its latest result reads `open` only; an earlier run with other values read `hidden`
    paramJoined = await newQuery(f.admin, {
      data_source_id: results, name: 'Any query', query: 'select * from query_{{n}}',
      options: { parameters: [{ name: 'n', title: 'n', type: 'number', value: open.id }] },
    })
    await runSaved(f.admin, joined)
    for (const n of [hidden.id, open.id]) {
      const ran = await f.admin.post(`/api/queries/${paramJoined.id}/results`, { parameters: { n }, max_age: 0 })
      await runJobs(f.t)
      expect((await outcomeOf(f.admin, ran)).error).toBeUndefined()
    }
    board = (await json(f.admin.post('/api/dashboards', { name: 'People board' }))).id
    const add = async (q: QueryJson, row: number) =>
      (await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: await vizOf(q), options: { position: { col: 0, row, sizeX: 3, sizeY: 8 } } }))).id as number
    tableWidget = await add(joined, 0)
    paramWidget = await add(paramJoined, 8)
    await json(f.admin.post(`/api/dashboards/${board}`, { is_draft: false }))
  })

  it('a dashboard marks the widget restricted and draws nothing of it, even once the admin drew it', async () => {
    // the admin's visit fills the drawings cache first
    expect(await (await f.admin.get(`/dashboards/${board}`)).text()).toContain(SECRET)
    const hiddenValues = `parameters=${encodeURIComponent(JSON.stringify({ n: hidden.id }))}`
    expect((await json(f.admin.get(`/api/widgets/${paramWidget}/drawing?${hiddenValues}`))).drawing).toContain(SECRET)
    expect(await (await f.admin.get(`/dashboards/${board}?p_w${paramWidget}_n=${hidden.id}`)).text()).toContain(SECRET)
    const details = await json(f.bo.get(`/api/dashboards/${board}`))
    const shown = details.widgets.find((w: { id: number }) => w.id === tableWidget)
    expect(shown.restricted).toBe(true)
    const plain = await f.bo.get(`/dashboards/${board}`)
    expect(plain.status).toBe(200)
    expect(await plain.text()).not.toContain(SECRET)
    const drawing = await f.bo.get(`/api/widgets/${tableWidget}/drawing`)
    expect(drawing.status).toBe(403)
    expect(await drawing.text()).not.toContain(SECRET)
    // a widget whose latest result bo may read, asked for values whose stored result read more: not drawn
    expect((await json(f.bo.get(`/api/widgets/${paramWidget}/drawing`))).drawing).toContain('Ops')
    const byValues = await json(f.bo.get(`/api/widgets/${paramWidget}/drawing?${hiddenValues}`))
    expect(byValues).toMatchObject({ drawing: null, note: 'never-run' })
    const page = await (await f.bo.get(`/dashboards/${board}?p_w${paramWidget}_n=${hidden.id}`)).text()
    expect(page).not.toContain(SECRET)
  })

  it("the query's own API, page, downloads and dropdown show none of its rows", async () => {
    for (const path of [`/api/queries/${joined.id}`, `/queries/${joined.id}`, `/api/queries/${joined.id}/dropdown`, `/api/queries/${joined.id}/results.xlsx`]) {
      const res = await f.bo.get(path)
      expect(await res.text(), path).not.toContain(SECRET)
    }
    // a query of bo's own with a dropdown backed by it
    const mine = await newQuery(f.bo, {
      data_source_id: f.warehouse, name: 'Pick a person', query: "select '{{who}}' as who",
      options: { parameters: [{ name: 'who', title: 'who', type: 'query', queryId: joined.id, value: null }] },
    })
    const choices = await f.bo.get(`/api/queries/${mine.id}/dropdowns/${joined.id}`)
    expect(await choices.text()).not.toContain(SECRET)
  })

  it("an embed by the query's key is refused, and a signed-in member's embed shows none of its rows", async () => {
    const viz = await vizOf(joined)
    const byKey = await f.t.app.request(`/embed/query/${joined.id}/visualization/${viz}?api_key=${joined.api_key}`)
    expect([403, 404]).toContain(byKey.status)
    expect(await byKey.text()).not.toContain(SECRET)
    const signedIn = await f.bo.get(`/embed/query/${joined.id}/visualization/${viz}`)
    expect(await signedIn.text()).not.toContain(SECRET)
  })

  it('cached_query_N of such a result is refused as the reference it is, not read and stored for a member', async () => {
    expect(await runAdhoc(f.bo, `select * from cached_query_${joined.id}`)).toEqual({ error: `You do not have access to query id ${joined.id}.` })
  })

  it("an alert's preview shows none of its rows to a member who may not read them", async () => {
    const res = await f.bo.post('/api/alerts/preview', { query_id: joined.id, options: { column: 'person', custom_body: '{{QUERY_RESULT_ROWS}}' } })
    expect(await res.text()).not.toContain(SECRET)
  })
})

describe('alerts on a Query Results query', () => {
  const watching = (name: string) => ({ name, query_id: joined.id, options: { column: 'person', op: '==', value: SECRET }, rearm: null })

  it("evaluates as its owner: one who may read every source sees the value, another gets an error, not data", async () => {
    await runSaved(f.admin, joined)
    const own = await json(f.admin.post('/api/alerts', watching('Admin watches')))
    const theirs = await json(f.bo.post('/api/alerts', watching('Bo watches')))
    // a later run by someone who may read everything is checked for both alerts
    await runSaved(f.admin, joined)
    const admins = await json(f.admin.get(`/api/alerts/${own.id}`))
    expect(admins).toMatchObject({ state: 'triggered', check_error: null })
    const bos = await json(f.bo.get(`/api/alerts/${theirs.id}`))
    expect(bos.state).toBe('unknown')
    expect(bos.check_error).toMatch(/may not read every data source/)
    const history = await (await f.bo.get(`/api/alerts/${theirs.id}/history`)).text()
    expect(history).not.toContain(SECRET)
    // the alert's page says why
    expect(await (await f.bo.get(`/alerts/${theirs.id}`)).text()).toContain('may not read every data source')
  })
})

describe('the schema browser of a Query Results source', () => {
  it("lists the queries the member may read as query_N with the columns of results they may read", async () => {
    await runSaved(f.admin, open)
    await runSaved(f.admin, joined)
    const mine = (await json(f.bo.get(`/api/data_sources/${results}/schema`))).schema as { name: string; description?: string; columns: { name: string }[] }[]
    const table = (q: QueryJson) => mine.find((t) => t.name === `query_${q.id}`)
    expect(table(open)).toEqual({ name: `query_${open.id}`, description: 'Teams', columns: [{ name: 'id', type: 'integer' }, { name: 'team', type: 'string' }] })
    expect(table(hidden)).toBeUndefined()
    // a Query Results query bo may read, whose latest result read a source bo may not: its columns are not shown
    expect(table(joined)).toEqual({ name: `query_${joined.id}`, description: 'Joined', columns: [] })
    const admins = (await json(f.admin.get(`/api/data_sources/${results}/schema`))).schema as { name: string }[]
    expect(admins.map((t) => t.name)).toContain(`query_${hidden.id}`)
  })
})
