import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, runJobs } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from '../api/queries-fixture.ts'

/**
 * What a public dashboard gives away: its page and every JSON answer the page's scripts get carry no SQL, no data
 * source name, no e-mail and no other key; an unknown and a revoked token are answered alike; and its answers are
 * revalidated by identity (304) with a policy that still fits the kept copy.
 */
let f: QueryFixture
const SOURCE_NAME = 'Zanzibar Ledger'
const SQL_MARK = 'zq_marker_column'
let plain: QueryJson
let regional: QueryJson
let board: { id: number }
let token = ''
let bare: { id: number }
let bareToken = ''

const json = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const anonymous = () => new Client(f.t.app)
const keyed = (path: string, init: RequestInit = {}) =>
  f.t.app.request(path, { ...init, headers: { authorization: `Key ${token}`, 'content-type': 'application/json', ...init.headers } })

beforeAll(async () => {
  f = await queryFixture()
  await json(f.admin.post(`/api/data_sources/${f.warehouse}`, { name: SOURCE_NAME, type: 'pg', options: (await json(f.admin.get(`/api/data_sources/${f.warehouse}`))).options }))
  plain = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Totals', query: `select 5 as ${SQL_MARK}` })
  regional = await newQuery(f.bo, {
    data_source_id: f.warehouse, name: 'Regional', query: `select '{{ region }}' as ${SQL_MARK}`,
    options: { parameters: [{ name: 'region', title: 'Region', type: 'enum', enumOptions: 'North\nSouth', value: 'North' }] },
  })
  await json(f.bo.post(`/api/queries/${plain.id}/results`, { max_age: 0 }))
  await runJobs(f.t)
  const make = async (queries: QueryJson[]) => {
    const d = await json(f.bo.post('/api/dashboards', { name: 'Public board' }))
    for (const q of queries) {
      await json(f.bo.post('/api/widgets', { dashboard_id: d.id, visualization_id: (q.visualizations as { id: number }[])[0].id, options: {} }))
    }
    await json(f.bo.post('/api/widgets', { dashboard_id: d.id, visualization_id: null, text: 'Read **me**', options: {} }))
    await json(f.bo.post(`/api/dashboards/${d.id}`, { is_draft: false }))
    return { d, token: (await json(f.bo.post(`/api/dashboards/${d.id}/share`))).api_key as string }
  }
  ;({ d: board, token } = await make([plain, regional]))
  ;({ d: bare, token: bareToken } = await make([plain]))
}, 60_000)
afterAll(() => f?.t.close())

/** Everything that must never reach a stranger. */
async function secrets(): Promise<string[]> {
  const keys = await f.t.db.sql<{ id: number }[]>`select id from users`
  const userKeys = keys.map((u) => `key${u.id}${'x'.repeat(30)}`)
  return ['select 5', 'select \'', SOURCE_NAME, 'bo@example.com', 'ada@example.com', plain.api_key, regional.api_key, ...userKeys]
}
const expectClean = async (what: string, text: string) => {
  for (const secret of await secrets()) expect(text, `${what} contains ${secret}`).not.toContain(secret)
}

describe('what the public page and its calls show', () => {
  it('has no SQL, source name, e-mail or key in the page or in any JSON answer its scripts get', async () => {
    const page = await anonymous().get(`/public/dashboards/${token}?p_region=South`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Public board')
    await expectClean('the page', html)

    const answers: [string, string][] = []
    const read = async (what: string, res: Response) => {
      expect(res.status, `${what}: ${await res.clone().text()}`).toBeLessThan(300)
      const text = await res.text()
      answers.push([what, text])
      return JSON.parse(text)
    }
    await read('public shape', await anonymous().get(`/api/dashboards/public/${token}`))
    const run = await read('run', await keyed(`/api/queries/${regional.id}/results`, { method: 'POST', body: JSON.stringify({ parameters: { region: 'South' }, max_age: 0 }) }))
    let resultId = run.query_result?.id
    if (!resultId) {
      await runJobs(f.t)
      const polled = await read('job', await keyed(`/api/queries/${regional.id}/jobs/${run.job.id}`))
      resultId = polled.job.query_result_id
    }
    await read('result', await keyed(`/api/queries/${regional.id}/results/${resultId}.json`))
    await read('latest', await keyed(`/api/queries/${plain.id}/results.json`))
    const widgets = (await json(f.bo.get(`/api/dashboards/${board.id}`))).widgets as { id: number; visualization?: { query: { id: number } } }[]
    const chart = widgets.find((w) => w.visualization?.query.id === regional.id)!
    const drawing = await keyed(`/api/widgets/${chart.id}/drawing?parameters=${encodeURIComponent(JSON.stringify({ region: 'South' }))}`)
    if (drawing.status !== 404) await read('drawing', drawing)
    for (const [what, text] of answers) await expectClean(what, text)
  })

  it('ships no script at all for a dashboard without parameters or filters, and scripts with the token otherwise', async () => {
    const page = await (await anonymous().get(`/public/dashboards/${bareToken}`)).text()
    expect(page).not.toMatch(/<script/i)
    expect(page).not.toContain('modulepreload')
    // the chart's drawing and the text box are there as markup
    expect(page).toContain('data-widget-drawing')
    expect(page).toContain('<strong>me</strong>')
    const scripted = await (await anonymous().get(`/public/dashboards/${token}`)).text()
    expect(scripted).toContain('data-name="DashboardParameters"')
    expect(scripted).toContain(`data-share-key="${token}"`)
  })

  it('loads its islands and their boot code from one script, with few files to fetch, on public pages only', async () => {
    const scripted = await (await anonymous().get(`/public/dashboards/${token}`)).text()
    const preloaded = [...scripted.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1])
    const inline = [...scripted.matchAll(/<script type="module"[^>]*>(.*?)<\/script>/g)].map((m) => m[1])
    expect(inline).toHaveLength(1)
    const imported = new Set([...inline[0].matchAll(/from\s*"([^"]+)"/g)].map((m) => m[1]))
    expect(imported.size).toBe(1)
    expect(preloaded).toContain([...imported][0])
    expect(new Set(preloaded).size).toBe(preloaded.length)
    // the boot script, each island and a dozen small chunks were 16 files for this page
    expect(preloaded.length).toBeLessThanOrEqual(10)
    // the signed-in dashboard page keeps the app's islands
    const own = await (await f.bo.get(`/dashboards/${board.id}`)).text()
    expect(own).not.toContain([...imported][0])
  })

  it('takes bad parameter values from the address without a 5xx: the page draws, the run is refused with its reason', async () => {
    for (const search of ['?p_region=Atlantis', '?p_region=%E0%A4%A', `?p_w999_region=x&p_region=${'x'.repeat(5000)}`]) {
      expect((await anonymous().get(`/public/dashboards/${token}${search}`)).status).toBe(200)
    }
    const refused = await keyed(`/api/queries/${regional.id}/results`, { method: 'POST', body: JSON.stringify({ parameters: { region: 'Atlantis' }, max_age: 0 }) })
    expect(refused.status).toBe(400)
    expect((await refused.json()).message).toBeTruthy()
  })

  it('may be framed by any site', async () => {
    const res = await anonymous().get(`/public/dashboards/${token}`)
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *')
    expect(res.headers.get('x-frame-options')).toBeNull()
    // every other page keeps refusing
    expect((await f.bo.get(`/dashboards/${board.id}`)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  })
})

describe('guessing', () => {
  it('answers an unknown, a malformed and a revoked token with the same 404 page', async () => {
    const d = await json(f.bo.post('/api/dashboards', { name: 'Short lived' }))
    await json(f.bo.post(`/api/dashboards/${d.id}`, { is_draft: false }))
    const revoked = (await json(f.bo.post(`/api/dashboards/${d.id}/share`))).api_key
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}/share`))
    const unknown = await anonymous().get(`/public/dashboards/${'Z'.repeat(40)}`)
    const bad = await anonymous().get('/public/dashboards/%27%3Cscript%3E')
    const gone = await anonymous().get(`/public/dashboards/${revoked}`)
    const elsewhere = await anonymous().get('/no/such/page')
    const bodies = await Promise.all([unknown, bad, gone, elsewhere].map((r) => r.text()))
    expect([unknown.status, bad.status, gone.status]).toEqual([404, 404, 404])
    expect(new Set(bodies).size).toBe(1)
  })
})

describe('revalidation', () => {
  it('answers 304 with the same policy while nothing shown changed, and the page again once a result is new', async () => {
    const first = await anonymous().get(`/public/dashboards/${bareToken}`)
    const etag = first.headers.get('etag')!
    const lastModified = first.headers.get('last-modified')!
    expect(first.headers.get('cache-control')).toBe('public, no-cache')
    const again = await anonymous().get(`/public/dashboards/${bareToken}`, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))
    expect(again.headers.get('x-frame-options')).toBeNull()
    expect((await anonymous().get(`/public/dashboards/${bareToken}`, { 'if-modified-since': lastModified })).status).toBe(304)
    // other parameter values are another page
    expect((await anonymous().get(`/public/dashboards/${bareToken}?p_x=1`, { 'if-none-match': etag })).status).toBe(200)
    // a new result of a widget's query is a new page
    await json(f.bo.post(`/api/queries/${plain.id}/results`, { max_age: 0 }))
    await runJobs(f.t)
    expect((await anonymous().get(`/public/dashboards/${bareToken}`, { 'if-none-match': etag })).status).toBe(200)
  })
})
