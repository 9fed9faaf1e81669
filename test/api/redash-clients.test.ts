import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, startWorkerFor } from '../helpers/app.ts'
import { outcomeOf, settle } from '../helpers/jobs.ts'
import { newQuery, queryFixture, refusal, type QueryFixture, type QueryJson } from './queries-fixture.ts'

/**
 * The calls third-party clients of the established tool's API make (scripts, notebooks, MCP servers, Terraform), sent
 * exactly as they send them: addresses, headers and bodies. Each answers as the established tool does (reference
 * `redash-server.md`), except where the README's Compatibility section says otherwise.
 */
let f: QueryFixture
let worker: { stop(): Promise<void> }
/** Bo's own API key (the fixture's users get `key<id>` and 30 x's). */
let boKey: string

/** A caller holding only a key, sent as the client sends it: `Authorization: <header>`, no cookies. */
class KeyClient extends Client {
  constructor(app: QueryFixture['t']['app'], private header: string) {
    super(app)
  }

  override request(method: string, path: string, o: Parameters<Client['request']>[2] = {}) {
    return super.request(method, path, { ...o, headers: { authorization: this.header, ...o.headers } })
  }
}
const withKey = (header: string) => new KeyClient(f.t.app, header)

beforeAll(async () => {
  f = await queryFixture()
  worker = await startWorkerFor(f.t)
  boKey = `key${f.ids.bo}${'x'.repeat(30)}`
}, 60_000)
afterAll(async () => {
  await worker?.stop()
  await f?.t.close()
})

const json = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const doubler = (client = f.bo, name = 'Doubler') => newQuery(client, {
  data_source_id: f.warehouse, name, query: 'select {{ n }} * 2 as doubled',
  options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 1 }] },
})
const textQuery = () => newQuery(f.bo, {
  data_source_id: f.warehouse, name: 'Free text', query: "select '{{ who }}' as who",
  options: { parameters: [{ name: 'who', title: 'Who', type: 'text', value: 'Ada' }] },
})
const firstVisualization = (q: QueryJson) => (q.visualizations as { id: number }[])[0].id
const executions = async (queryId: number) =>
  (await f.t.db.sql<{ n: number }[]>`select count(*)::int as n from executions where query_id = ${queryId}`)[0].n

describe('GET api/dashboards/{slug} without ?legacy', () => {
  it('finds a dashboard by id, by id-slug, by slug alone, and by slug with an empty ?legacy', async () => {
    const d = await json(f.bo.post('/api/dashboards', { name: 'Revenue Board' }))
    for (const address of [`${d.id}`, `${d.id}-revenue-board`, 'revenue-board', 'revenue-board?legacy=', 'revenue-board?legacy']) {
      expect((await json(f.cleo.get(`/api/dashboards/${address}`))).id, address).toBe(d.id)
    }
    expect((await json(withKey(`Key ${boKey}`).get('/api/dashboards/revenue-board'))).id).toBe(d.id)
  })

  it('reads a slug that starts with digits as a slug when no dashboard has that id; a bare number is always an id', async () => {
    const d = await json(f.bo.post('/api/dashboards', { name: '2024 Plan' }))
    expect(d.slug).toBe('2024-plan')
    expect((await json(f.bo.get('/api/dashboards/2024-plan'))).id).toBe(d.id)
    expect((await json(f.bo.get(`/api/dashboards/${d.id}-2024-plan`))).id).toBe(d.id)
    const numeric = await json(f.bo.post('/api/dashboards', { name: '987654' }))
    expect(numeric.slug).toBe('987654')
    expect((await f.bo.get('/api/dashboards/987654')).status).toBe(404)
    expect((await json(f.bo.get('/api/dashboards/987654?legacy'))).id).toBe(numeric.id)
    expect((await f.bo.get('/api/dashboards/no-such-board')).status).toBe(404)
  })
})

describe('POST api/queries/{id}/refresh', () => {
  it('runs the saved query with the p_ values of the address, always anew, and answers the job to poll', async () => {
    const q = await doubler()
    const key = withKey(`Key ${boKey}`)
    const before = await executions(q.id)
    for (let round = 0; round < 2; round++) {
      const res = await key.request('POST', `/api/queries/${q.id}/refresh?p_n=21`)
      expect(res.status, await res.clone().text()).toBe(200)
      const body = await res.json()
      expect(Object.keys(body)).toEqual(['job'])
      expect(body.job).toMatchObject({ id: expect.any(String), status: expect.any(Number) })
      const job = await settle(key, body.job)
      expect(job.status).toBe(3)
      const result = await json(key.get(`/api/query_results/${job.query_result_id}`))
      expect(result.query_result.data.rows).toEqual([{ doubled: 42 }])
    }
    // max_age 0: the second refresh ran again instead of answering the first one's result
    expect(await executions(q.id)).toBe(before + 2)
  })

  it('runs with the defaults when the address has no values, and checks the values it has', async () => {
    const q = await doubler()
    const job = await settle(f.bo, (await json(f.bo.request('POST', `/api/queries/${q.id}/refresh`))).job)
    expect((await json(f.bo.get(`/api/query_results/${job.query_result_id}`))).query_result.data.rows).toEqual([{ doubled: 2 }])
    expect((await f.bo.request('POST', `/api/queries/${q.id}/refresh?p_n=drop`)).status).toBe(400)
  })

  it('refuses a query key and a share token with "Please use a user API key.", view-only members with 403, strangers with 401', async () => {
    const q = await doubler()
    expect(await refusal(withKey(`Key ${q.api_key}`).request('POST', `/api/queries/${q.id}/refresh`))).toEqual([403, 'Please use a user API key.'])
    expect(await refusal(new Client(f.t.app).request('POST', `/api/queries/${q.id}/refresh?api_key=${q.api_key}`))).toEqual([403, 'Please use a user API key.'])
    const board = await json(f.bo.post('/api/dashboards', { name: 'Refreshed board' }))
    await json(f.bo.post('/api/widgets', { dashboard_id: board.id, visualization_id: firstVisualization(q), options: {} }))
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${board.id}/share`))
    expect(await refusal(withKey(`Key ${token}`).request('POST', `/api/queries/${q.id}/refresh`))).toEqual([403, 'Please use a user API key.'])
    const onShared = await newQuery(f.admin, { data_source_id: f.shared, name: 'On shared', query: 'select 1' })
    expect((await f.vi.request('POST', `/api/queries/${onShared.id}/refresh`)).status).toBe(403)
    expect((await new Client(f.t.app).request('POST', `/api/queries/${q.id}/refresh`)).status).toBe(401)
  })
})

describe('a run answered at once carries a finished job', () => {
  it('adds {job} with status 3 beside the result, and GET api/jobs/{id} answers that job', async () => {
    const q = await doubler()
    const key = withKey(`Key ${boKey}`)
    const body = await json(key.post(`/api/queries/${q.id}/results`, { parameters: { n: 4 }, max_age: 0 }))
    const resultId = body.query_result?.id ?? (await settle(key, body.job)).query_result_id
    // run again: a stored result now answers at once, with max_age 0 as with -1
    for (const maxAge of [0, -1]) {
      const answer = await json(key.post(`/api/queries/${q.id}/results`, { parameters: { n: 4 }, max_age: maxAge }))
      if (!answer.query_result) continue // a slow machine: the run outlived the brief wait, so a plain job came back
      expect(answer.job).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 3, query_result_id: answer.query_result.id, error: null, updated_at: answer.query_result.retrieved_at })
      expect((await json(key.get(`/api/jobs/${answer.job.id}`))).job).toEqual(answer.job)
      expect((await json(key.get(`/api/queries/${q.id}/jobs/${answer.job.id}`))).job).toEqual(answer.job)
    }
    const cached = await json(key.post('/api/query_results', { data_source_id: f.warehouse, query: 'select 4 * 2 as doubled', max_age: -1 }))
    const first = cached.query_result ? cached : await json(key.post('/api/query_results', { data_source_id: f.warehouse, query: 'select 4 * 2 as doubled', max_age: -1 }))
    expect(first.job).toMatchObject({ status: 3, query_result_id: first.query_result.id, error: null })
    expect((await json(f.cleo.get(`/api/jobs/${first.job.id}`))).job.query_result_id).toBe(first.query_result.id)
    expect(resultId).toBeGreaterThan(0)
  })

  it('answers 404 to a job id made up in the finished jobs\' form', async () => {
    const body = await json(f.bo.post('/api/query_results', { data_source_id: f.warehouse, query: 'select 5 as five', max_age: -1 }))
    const job = body.job.status === 3 && body.query_result ? body.job : await settle(f.bo, body.job)
    const forged = job.id.replace(/[0-9a-f](?=[0-9a-f]{3}$)/, (c: string) => (c === '0' ? '1' : '0'))
    expect((await f.bo.get(`/api/jobs/${forged}`)).status).toBe(404)
  })
})

describe('Authorization: <key> without "Key "', () => {
  it('authenticates a bare user key as with the prefix, and a bare query key on its query', async () => {
    expect((await withKey(boKey).get('/api/queries')).status).toBe(200)
    expect((await withKey(`Key ${boKey}`).get('/api/queries')).status).toBe(200)
    const q = await doubler()
    await outcomeOf(f.bo, await f.bo.post(`/api/queries/${q.id}/results`, { max_age: 0 }))
    expect((await withKey(q.api_key).get(`/api/queries/${q.id}/results.json`)).status).toBe(200)
  })

  it('takes no other scheme for a key, and no unknown key at all', async () => {
    expect((await withKey(`Bearer ${boKey}`).get('/api/queries')).status).toBe(401)
    expect((await withKey(`Basic ${boKey}`).get('/api/queries')).status).toBe(401)
    expect((await withKey('x'.repeat(40)).get('/api/queries')).status).toBe(401)
  })
})

describe('visualization options the server does not understand', () => {
  it("stores a table's booleanValues [false, true] and a funnel's sortKeyCol {colName: null} as given, and draws them", async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Flags', query: "select true as ok, 'a' as step, 3 as value" })
    const tableOptions = { itemsPerPage: 25, columns: [{ name: 'ok', displayAs: 'boolean', booleanValues: [false, true], visible: true }] }
    const table = await json(f.bo.post('/api/visualizations', { query_id: q.id, type: 'TABLE', name: 'Flags', options: tableOptions }))
    expect(table.options.columns[0].booleanValues).toEqual([false, true])
    const funnelOptions = { stepCol: { colName: 'step', displayAs: 'Steps' }, valueCol: { colName: 'value', displayAs: 'Value' }, sortKeyCol: { colName: null }, autoSort: true }
    const funnel = await json(f.bo.post('/api/visualizations', { query_id: q.id, type: 'FUNNEL', name: 'Steps', options: funnelOptions }))
    expect(funnel.options.sortKeyCol).toEqual({ colName: null, reverse: false })
    // a shape it does not know at all is kept too, and drawn with the default (every column as it comes)
    const odd = await json(f.bo.post('/api/visualizations', { query_id: q.id, type: 'TABLE', options: { columns: 'all' } }))
    expect(odd.options.columns).toBe('all')
    const saved = await json(f.bo.get(`/api/queries/${q.id}`))
    expect(saved.visualizations.find((v: { id: number }) => v.id === table.id).options.columns[0].booleanValues).toEqual([false, true])
    // edited back as read: no refusal either
    await json(f.bo.post(`/api/visualizations/${funnel.id}`, { options: saved.visualizations.find((v: { id: number }) => v.id === funnel.id).options }))

    await outcomeOf(f.bo, await f.bo.post(`/api/queries/${q.id}/results`, { max_age: 0 }))
    const board = await json(f.bo.post('/api/dashboards', { name: 'Flags board' }))
    for (const v of [table, funnel, odd]) {
      const widget = await json(f.bo.post('/api/widgets', { dashboard_id: board.id, visualization_id: v.id, options: {} }))
      const drawn = await json(f.bo.get(`/api/widgets/${widget.id}/drawing`))
      expect(drawn.drawing, v.type).toBeTruthy()
    }
  })

  it('refuses only what drawing cannot do without, naming the field', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Refused', query: 'select 1 as a' })
    expect(await refusal(f.bo.post('/api/visualizations', { query_id: q.id, type: 'TABLE', options: { columns: [{ booleanValues: ['no', 'yes'] }] } })))
      .toEqual([400, expect.stringContaining('options.columns.0.name')])
    expect(await refusal(f.bo.post('/api/visualizations', { query_id: q.id, type: 'TABLE', options: { columns: [{ name: 5 }] } })))
      .toEqual([400, expect.stringContaining('options.columns.0.name')])
    expect(await refusal(f.bo.post('/api/visualizations', { query_id: q.id, type: 'CHART', options: { seriesOptions: { a: { color: 'red;} <script>' } } } })))
      .toEqual([400, expect.stringContaining('options.seriesOptions.a.color')])
    expect(await refusal(f.bo.post('/api/visualizations', { query_id: q.id, type: 'TABLE', options: [] })))
      .toEqual([400, expect.stringContaining('options')])
  })
})

describe('sharing a dashboard with a text-parameter query', () => {
  it('shares; the token neither runs nor reads that query, and the public shape shows its widget as unavailable', async () => {
    const unsafe = await textQuery()
    const safe = await doubler(f.bo, 'Safe on the board')
    await outcomeOf(f.bo, await f.bo.post(`/api/queries/${unsafe.id}/results`, { parameters: { who: 'Ada' }, max_age: 0 }))
    const board = await json(f.bo.post('/api/dashboards', { name: 'Mixed board' }))
    const widgets = []
    for (const q of [unsafe, safe]) widgets.push(await json(f.bo.post('/api/widgets', { dashboard_id: board.id, visualization_id: firstVisualization(q), options: {} })))
    const shared = await json(f.bo.post(`/api/dashboards/${board.id}/share`))
    expect(Object.keys(shared).sort()).toEqual(['api_key', 'public_url'])
    const token = withKey(`Key ${shared.api_key}`)

    expect((await token.post(`/api/queries/${unsafe.id}/results`, { parameters: { who: 'Ada' }, max_age: -1 })).status).toBe(403)
    expect((await token.post(`/api/queries/${unsafe.id}/results`, {})).status).toBe(403)
    expect((await token.get(`/api/queries/${unsafe.id}/results.json`)).status).toBe(403)
    expect((await token.get(`/api/widgets/${widgets[0].id}/drawing`)).status).toBe(403)
    expect((await token.post(`/api/queries/${safe.id}/results`, { parameters: { n: 3 }, max_age: -1 })).status).toBe(200)

    const publicShape = await json(new Client(f.t.app).get(`/api/dashboards/public/${shared.api_key}`))
    const byId = new Map(publicShape.widgets.map((w: { id: number }) => [w.id, w]))
    expect(byId.get(widgets[0].id)).toMatchObject({ restricted: true })
    expect(byId.get(widgets[0].id)).not.toHaveProperty('visualization')
    expect(byId.get(widgets[1].id)).toHaveProperty('visualization')
    const page = await new Client(f.t.app).get(`/public/dashboards/${shared.api_key}`)
    expect(page.status).toBe(200)
    expect(await page.text()).not.toContain('Free text')
  })
})

describe('a source outside the caller\'s groups', () => {
  it('answers 403 on the source, its schema, a run on it and a query saved on it; an unknown source stays 404 or 400', async () => {
    expect((await f.bo.get(`/api/data_sources/${f.shared}`)).status).toBe(403)
    expect((await f.bo.get(`/api/data_sources/${f.shared}/schema`)).status).toBe(403)
    expect((await f.bo.post('/api/query_results', { data_source_id: f.shared, query: 'select 1', max_age: 0 })).status).toBe(403)
    expect((await f.bo.post('/api/queries', { data_source_id: f.shared, query: 'select 1', name: 'Sneaky' })).status).toBe(403)
    expect((await f.bo.get('/api/data_sources/999999')).status).toBe(404)
    expect((await f.bo.get('/api/data_sources/999999/schema')).status).toBe(404)
    expect((await f.bo.post('/api/queries', { data_source_id: 999999, query: 'select 1' })).status).toBe(400)
  })

  it('answers 403 for a dropdown parameter on a query the caller may not reach, 400 for one that does not exist', async () => {
    const hidden = await newQuery(f.admin, { data_source_id: f.shared, name: 'Regions', query: "select 'North' as value" })
    const dropdown = (queryId: number) => ({
      data_source_id: f.warehouse, name: 'Picks', query: "select '{{ region }}'",
      options: { parameters: [{ name: 'region', title: 'Region', type: 'query', queryId, value: null }] },
    })
    expect((await f.bo.post('/api/queries', dropdown(hidden.id))).status).toBe(403)
    expect((await f.bo.post('/api/queries', dropdown(999999))).status).toBe(400)
    const mine = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Mine', query: 'select 1' })
    expect((await f.bo.post(`/api/queries/${mine.id}`, { version: mine.version, ...dropdown(hidden.id) })).status).toBe(403)
  })
})

describe('GET api/queries/recent', () => {
  it("answers at most ten of the caller's own queries, drafts included, the latest changed first", async () => {
    const made: QueryJson[] = []
    for (let i = 0; i < 11; i++) made.push(await newQuery(f.cleo, { data_source_id: f.warehouse, name: `Cleo ${i}`, query: `select ${i}` }))
    await json(f.cleo.post(`/api/queries/${made[3].id}`, { description: 'touched last', version: made[3].version }))
    const recent = await json(f.cleo.get('/api/queries/recent')) as { id: number; is_draft: boolean; user: { id: number } }[]
    expect(recent).toHaveLength(10)
    expect(recent[0].id).toBe(made[3].id)
    expect(recent.slice(1).map((r) => r.id)).toEqual(made.slice(1).filter((q) => q.id !== made[3].id).map((q) => q.id).reverse())
    expect(recent.every((r) => r.is_draft && r.user.id === f.ids.cleo)).toBe(true)
  })
})

describe('malformed bodies', () => {
  it('refuses a JSON array, a string and null where an object is expected, with 400', async () => {
    const q = await doubler()
    const alert = await json(f.bo.post('/api/alerts', { query_id: q.id, options: { column: 'doubled', op: '>', value: 1 } }))
    for (const body of [[], [{ destination_id: 1 }], 'me', null, 7]) {
      const res = await f.bo.request('POST', `/api/alerts/${alert.id}/subscriptions`, { json: body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect((await res.json()).message).toBe('The request body must be a JSON object.')
    }
    expect((await f.bo.request('POST', '/api/alerts/preview', { json: [] })).status).toBe(400)
    expect(await f.t.db.sql`select 1 from alert_subscriptions where alert_id = ${alert.id}`).toHaveLength(0)
    // an empty body is still a subscription to one's own e-mail
    expect((await f.bo.request('POST', `/api/alerts/${alert.id}/subscriptions`)).status).toBe(200)
  })

  it('refuses them alike on the other calls that read an object, null included', async () => {
    const q = await doubler()
    const board = await json(f.bo.post('/api/dashboards', { name: 'Bodies' }))
    const widget = await json(f.bo.post('/api/widgets', { dashboard_id: board.id, text: 'hello', options: {} }))
    const [group] = await f.t.db.sql<{ id: number }[]>`select id from groups where name = 'default'`
    const calls: [Client, string][] = [
      [f.bo, `/api/queries/${q.id}`], [f.bo, `/api/dashboards/${board.id}`], [f.bo, `/api/widgets/${widget.id}`],
      [f.bo, `/api/queries/${q.id}/acl`], [f.bo, `/api/queries/${q.id}/versions/1/restore`], [f.admin, `/api/groups/${group.id}/members`],
    ]
    for (const [client, path] of calls) {
      for (const body of [null, [], [{ name: 'x' }]]) {
        const res = await client.request('POST', path, { json: body })
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400)
        expect((await res.json()).message).toBe('The request body must be a JSON object.')
      }
    }
  })
})
