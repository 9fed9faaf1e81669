import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { eventually } from '../helpers/wait.ts'

/** The embed page (spec 2 §2): who opens it, what it shows for its address, framing and caching. */

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> } | undefined
let ds: number
const q = { chart: { id: 0, key: '', vis: 0 }, counter: { id: 0, key: '', vis: 0 }, unsafe: { id: 0, key: '', vis: 0 }, broken: { id: 0, key: '', vis: 0 } }
let member: { id: number; apiKey: string }

const anonymous = () => new Client(t.app)

async function json(pending: Promise<Response>) {
  const res = await pending
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`)
  return res.json()
}

async function makeQuery(name: string, query: string, vis: { type: string; options: unknown }, extra: Record<string, unknown> = {}) {
  const created = await json(admin.post('/api/queries', { data_source_id: ds, name, query, description: `About **${name}**`, ...extra }))
  const v = await json(admin.post('/api/visualizations', { query_id: created.id, name: `${name} view`, ...vis }))
  return { id: created.id as number, key: created.api_key as string, vis: v.id as number }
}

/** The page at `path`, following its reloads while a run goes on (the meta refresh a browser would follow). */
async function embed(path: string, headers: Record<string, string> = {}): Promise<{ res: Response; html: string }> {
  let url = path
  return eventually(async () => {
    const res = await t.app.request(url, { headers })
    const html = await res.text()
    const again = /http-equiv="refresh" content="\d+;url=\?([^"]+)"/.exec(html)
    if (again) url = `${path.split('?')[0]}?${again[1].replaceAll('&amp;', '&')}`
    return { res, html, pending: !!again }
  }, (now) => !now.pending, `the embed ${path}`)
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  member = await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })
  ds = (await json(admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) }))).id
  worker = await startWorkerFor(t)
  q.chart = await makeQuery('Sales', "select 'North' as region, 10 as sales union all select 'South', 20",
    { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { region: 'x', sales: 'y' } } })
  await outcomeOf(admin, await admin.post(`/api/queries/${q.chart.id}/results`, { max_age: 0 }))
  q.counter = await makeQuery('Doubled', 'select {{ n }} * 2 as doubled', { type: 'COUNTER', options: { counterColName: 'doubled' } },
    { options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 1 }] } })
  q.unsafe = await makeQuery('Free text', "select '{{ who }}' as who", { type: 'TABLE', options: {} },
    { options: { parameters: [{ name: 'who', title: 'Who', type: 'text', value: 'Ada' }] } })
  q.broken = await makeQuery('Broken', 'select * from no_such_table_here', { type: 'TABLE', options: {} })
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

const page = (which: keyof typeof q, more = '') => `/embed/query/${q[which].id}/visualization/${q[which].vis}?api_key=${q[which].key}${more}`

describe('the embed page', () => {
  it("draws the visualization on the server for the query's key, with its header, link and timestamp", async () => {
    const { res, html } = await embed(page('chart'))
    expect(res.status).toBe(200)
    expect(html).toContain('<svg')
    expect(html).toContain('Sales view')
    expect(html).toMatch(/<h1[^>]*>Sales/)
    expect(html).toContain(`href="/queries/${q.chart.id}"`)
    expect(html).toContain('data-embed-timestamp')
    expect(html).not.toContain('<script type="module"') // no script at all
    expect(html).not.toContain('data-embed-description')
  })

  it('hides the header, link and timestamp, and shows the description, as the address asks', async () => {
    const { html } = await embed(page('chart', '&hide_header&hide_link&hide_timestamp'))
    expect(html).not.toMatch(/<h1/)
    expect(html).not.toContain('data-embed-link')
    expect(html).not.toContain('data-embed-timestamp')
    expect(html).toContain('<svg')
    const described = (await embed(page('chart', '&showDescription'))).html
    expect(described).toContain('<strong>Sales</strong>')
  })

  it('runs with the parameters of the address, shows them as a form, and hides them with hide_parameters', async () => {
    const { html } = await embed(page('counter', '&p_n=21'))
    expect(html).toContain('42')
    expect(html).toMatch(/<form[^>]*method="get"/)
    expect(html).toContain('name="p_n"')
    expect(html).toContain(`name="api_key" value="${q.counter.key}"`)
    const defaults = (await embed(page('counter'))).html
    expect(defaults).toMatch(/>2</)
    expect((await embed(page('counter', '&p_n=3&hide_parameters'))).html).not.toContain('<form')
  })

  it("shows a bad parameter value as the widget's error, not a failure of the page", async () => {
    const { res, html } = await embed(page('counter', '&p_n=1%3B%20drop%20table%20users'))
    expect(res.status).toBe(200)
    expect(html).toMatch(/Error: /)
  })

  it("says 'Error: {message}' for a failed run", async () => {
    const { res, html } = await embed(page('broken'))
    expect(res.status).toBe(200)
    expect(html).toMatch(/Error: [^<]*no_such_table_here/)
  })

  it("says 'Visualization does not exist' for a visualization of another query", async () => {
    const { html } = await embed(`/embed/query/${q.chart.id}/visualization/${q.counter.vis}?api_key=${q.chart.key}`)
    expect(html).toContain('Visualization does not exist')
    expect(html).not.toContain('<svg')
  })

  it('refuses queries with text parameters, unless SIGHTLINE_ALLOW_PARAMETERS_IN_EMBEDS is set', async () => {
    const refused = (await embed(page('unsafe', '&p_who=Bob'))).html
    expect(refused).toContain('Currently it is not possible to embed queries that contain text parameters.')
    expect(refused).not.toContain('Bob</td>')
    t.deps.config.allowParametersInEmbeds = true
    try {
      const allowed = (await embed(page('unsafe', '&p_who=Bob'))).html
      expect(allowed).not.toContain('Currently it is not possible')
      expect(allowed).toContain('Bob')
    } finally {
      t.deps.config.allowParametersInEmbeds = false
    }
  })
})

describe('who opens it', () => {
  it('answers a wrong, revoked or foreign key alike with the 404 page, and sends a visitor without one to sign in', async () => {
    const wrong = await t.app.request(`/embed/query/${q.chart.id}/visualization/${q.chart.vis}?api_key=${'x'.repeat(40)}`)
    const foreign = await t.app.request(`/embed/query/${q.chart.id}/visualization/${q.chart.vis}?api_key=${q.counter.key}`)
    const missing = await t.app.request(`/embed/query/999999/visualization/${q.chart.vis}?api_key=${q.chart.key}`)
    for (const res of [wrong, foreign, missing]) {
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain('Sales')
    }
    const none = await t.app.request(`/embed/query/${q.chart.id}/visualization/${q.chart.vis}`)
    expect(none.status).toBe(302)
    expect(none.headers.get('location')).toMatch(/^\/login\?next=/)
  })

  it("opens with a user's key or session when they may see the query", async () => {
    const byUserKey = await embed(`/embed/query/${q.chart.id}/visualization/${q.chart.vis}?api_key=${member.apiKey}`)
    expect(byUserKey.res.status).toBe(200)
    expect(byUserKey.html).toContain('<svg')
    const { client } = await signInAs(t.app, 'mo@example.com', 'mo-password')
    const bySession = await client.get(`/embed/query/${q.chart.id}/visualization/${q.chart.vis}`)
    expect(bySession.status).toBe(200)
    expect(bySession.headers.get('cache-control')).toMatch(/^private/)
  })

  it('stops opening with a key once it is regenerated', async () => {
    const fresh = await makeQuery('Short-lived', 'select 1 as one', { type: 'TABLE', options: {} })
    const path = `/embed/query/${fresh.id}/visualization/${fresh.vis}?api_key=${fresh.key}`
    expect((await embed(path)).res.status).toBe(200)
    await json(admin.post(`/api/queries/${fresh.id}/regenerate_api_key`))
    expect((await t.app.request(path)).status).toBe(404)
  })
})

describe('framing and caching', () => {
  it('lets any site frame an embed, and no other page', async () => {
    const res = await t.app.request(page('chart'))
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *')
    expect(res.headers.get('x-frame-options')).toBeNull()
    for (const other of ['/login', `/queries/${q.chart.id}`, '/help']) {
      const r = await admin.get(other)
      expect(r.headers.get('content-security-policy') ?? '').not.toContain('frame-ancestors *')
      expect(r.headers.get('x-frame-options')).toMatch(/DENY|SAMEORIGIN/)
    }
  })

  it("revalidates with a 304 from the result's identity, still framable, and public for a key in the address", async () => {
    const first = await t.app.request(page('chart'))
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"/)
    expect(first.headers.get('last-modified')).toBeTruthy()
    expect(first.headers.get('cache-control')).toBe('public, no-cache')
    const again = await t.app.request(page('chart'), { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('content-security-policy')).toContain('frame-ancestors *')
    expect(again.headers.get('x-frame-options')).toBeNull()
    const since = await t.app.request(page('chart'), { headers: { 'if-modified-since': first.headers.get('last-modified')! } })
    expect(since.status).toBe(304)
    // other switches are another answer
    expect((await t.app.request(page('chart', '&hide_link'), { headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  it("keeps a result for the query's refresh interval", async () => {
    await json(admin.post(`/api/queries/${q.chart.id}`, { schedule: { interval: 600, time: null, day_of_week: null, until: null } }))
    const res = await t.app.request(page('chart'))
    expect(res.headers.get('cache-control')).toBe('public, max-age=600, must-revalidate')
    const latest = await t.app.request(`/api/queries/${q.chart.id}/results.json?api_key=${q.chart.key}`)
    expect(latest.headers.get('cache-control')).toBe('public, max-age=600, must-revalidate')
    await json(admin.post(`/api/queries/${q.chart.id}`, { schedule: null }))
  })
})

describe("a key's result calls", () => {
  it('answer with validators and 304, public for a key in the address and private for a session', async () => {
    const path = `/api/queries/${q.chart.id}/results.json?api_key=${q.chart.key}`
    const res = await t.app.request(path)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.query_result.data.rows).toHaveLength(2)
    // a query key reads the result, not its SQL or its source
    expect(body.query_result).not.toHaveProperty('query')
    expect(body.query_result).not.toHaveProperty('data_source_id')
    expect(res.headers.get('cache-control')).toMatch(/^public/)
    expect((await t.app.request(path, { headers: { 'if-none-match': res.headers.get('etag')! } })).status).toBe(304)
    const csv = await t.app.request(`/api/queries/${q.chart.id}/results/${body.query_result.id}.csv?api_key=${q.chart.key}`)
    expect(csv.headers.get('cache-control')).toBe('public, max-age=31557600, must-revalidate')
    expect((await t.app.request(`/api/queries/${q.chart.id}/results/${body.query_result.id}.csv?api_key=${q.chart.key}`, { headers: { 'if-none-match': csv.headers.get('etag')! } })).status).toBe(304)
    const bySession = await admin.get(`/api/query_results/${body.query_result.id}`)
    expect(bySession.headers.get('cache-control')).toMatch(/^private/)
    expect((await bySession.json()).query_result.query).toContain('North')
    expect((await admin.get(`/api/query_results/${body.query_result.id}`, { 'if-none-match': bySession.headers.get('etag')! })).status).toBe(304)
    const byHeader = await anonymous().get(`/api/queries/${q.chart.id}/results.json`, { authorization: `Key ${q.chart.key}` })
    expect(byHeader.headers.get('cache-control')).toMatch(/^private/)
  })
})
