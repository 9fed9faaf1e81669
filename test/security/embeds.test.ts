import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { eventually } from '../helpers/wait.ts'

/**
 * The embed page is opened by strangers in other sites' frames: it must show the picture and nothing of what is
 * behind it (SQL, data-source names, people's e-mails, other keys), take any address without failing, and be
 * framable while every other page is not.
 */

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> } | undefined
const SOURCE_NAME = 'Warehouse-Internal-7731'
const SQL_MARK = 'sql_marker_5519'
const q = { chart: { id: 0, key: '', vis: 0 }, params: { id: 0, key: '', vis: 0 }, other: { id: 0, key: '', vis: 0 } }

async function ok(pending: Promise<Response>) {
  const res = await pending
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`)
  return res.json()
}

/** The page as a browser ends up showing it (following the reloads of a run in progress); never a 5xx on the way. */
async function embed(path: string): Promise<{ status: number; html: string; headers: Headers }> {
  let url = path
  return eventually(async () => {
    const res = await t.app.request(url)
    expect(res.status, url).toBeLessThan(500)
    const html = await res.text()
    const again = /http-equiv="refresh" content="\d+;url=\?([^"]+)"/.exec(html)
    if (again) url = `${path.split('?')[0]}?${again[1].replaceAll('&amp;', '&')}`
    return { status: res.status, html, headers: res.headers, pending: !!again }
  }, (now) => !now.pending, `the embed ${path}`)
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  const ds = (await ok(admin.post('/api/data_sources', { name: SOURCE_NAME, type: 'pg', options: pgOptionsFor(t) }))).id
  worker = await startWorkerFor(t)
  const make = async (name: string, query: string, vis: { type: string; options: unknown }, options: unknown = {}) => {
    const created = await ok(admin.post('/api/queries', { data_source_id: ds, name, query, options, description: 'Plain words' }))
    const v = await ok(admin.post('/api/visualizations', { query_id: created.id, name: 'View', ...vis }))
    return { id: created.id as number, key: created.api_key as string, vis: v.id as number }
  }
  q.chart = await make('Regions', `select 'North' as region, 3 as n /* ${SQL_MARK} */ union all select 'South', 4`,
    { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { region: 'x', n: 'y' } } })
  await ok(admin.post(`/api/queries/${q.chart.id}/results`, { max_age: 0 }))
  q.params = await make('Filtered', `select {{ n }} as n, '{{ region }}' as region, '{{ period.start }}' as since /* ${SQL_MARK} */`, { type: 'TABLE', options: {} }, {
    parameters: [
      { name: 'n', title: 'N', type: 'number', value: 1 },
      { name: 'region', title: 'Region', type: 'enum', enumOptions: 'North\nSouth', value: ['North'], multiValuesOptions: { separator: ',', prefix: '', suffix: '' } },
      { name: 'period', title: 'Period', type: 'date-range', value: { start: '2024-01-01', end: '2024-01-31' } },
    ],
  })
  q.other = await make('Other', 'select 1 as one', { type: 'TABLE', options: {} })
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

const path = (which: keyof typeof q, more = '') => `/embed/query/${q[which].id}/visualization/${q[which].vis}?api_key=${q[which].key}${more}`

describe('what an embed shows', () => {
  it('shows no SQL, no data-source name, no e-mail and no other key, and fetches nothing', async () => {
    for (const page of [path('chart'), path('chart', '&showDescription'), path('params'), path('params', '&p_n=7&p_region=%5B%22South%22%5D')]) {
      const { status, html } = await embed(page)
      expect(status).toBe(200)
      for (const secret of [SQL_MARK, SOURCE_NAME, ADMIN.email, q.other.key, 'select {{', "select 'North'"]) expect(html, `${page}: ${secret}`).not.toContain(secret)
      // the page loads no script, so it makes no JSON requests a visitor could read more from
      expect(html).not.toMatch(/<script\b(?![^>]*application\/json)/)
    }
  })

  it('takes any parameter values from the address without failing: bad ones get the error text', async () => {
    const hostile = [
      '&p_n=abc', '&p_n=1%3B%20drop%20table%20users', '&p_n=%3Cscript%3Ealert(1)%3C%2Fscript%3E', `&p_n=${'9'.repeat(5000)}`,
      '&p_region=%5B%22East%22%5D', '&p_region=%5Bnot%20json', '&p_region=North&p_region=Nowhere', '&p_region={}',
      '&p_period=2024-13-45--2024-01-01', '&p_period=d_not_a_range', '&p_period.start=x&p_period.end=y', '&job=not-a-job',
      '&job=00000000-0000-0000-0000-000000000000', '&p_n=%00', '&p_n=1e309',
    ]
    for (const more of hostile) {
      const { status, html } = await embed(path('params', more))
      expect(status, more).toBe(200)
      expect(html, more).not.toContain('<script>alert(1)')
      expect(html, more).not.toContain(SQL_MARK)
    }
    expect((await embed(path('params', '&p_region=%5B%22East%22%5D'))).html).toMatch(/Error: /)
  })

  it('escapes what the address brings back into the page', async () => {
    const { html } = await embed(path('params', '&hide_link=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E'))
    expect(html).not.toContain('<script>alert(1)')
  })
})

describe('framing', () => {
  it('lets any site frame embeds, and refuses framing on every other page', async () => {
    const framed = await t.app.request(path('chart'))
    expect(framed.headers.get('content-security-policy')).toContain('frame-ancestors *')
    expect(framed.headers.get('x-frame-options')).toBeNull()
    const notFound = await t.app.request(`/embed/query/${q.chart.id}/visualization/${q.chart.vis}?api_key=nope`)
    expect(notFound.status).toBe(404)
    expect(notFound.headers.get('x-frame-options')).toBe('DENY')
    for (const page of ['/', '/login', '/queries', `/queries/${q.chart.id}`, '/dashboards', '/users/me', '/nowhere']) {
      const res = await admin.get(page)
      expect(res.headers.get('x-frame-options'), page).toBe('DENY')
      expect(res.headers.get('content-security-policy'), page).toContain("frame-ancestors 'none'")
    }
  })
})
