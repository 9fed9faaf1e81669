import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, runJobs, signInAs } from '../helpers/app.ts'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND, shellIslands } from '../helpers/pages.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from './queries-fixture.ts'

/**
 * The read-only query page /queries/{id}: who may open it, what the QueryPage island is given (the query without
 * its API key, its visualizations, the caller's permissions, the configured refresh intervals) and what the HTML shows.
 */
let f: QueryFixture
let bosQuery: QueryJson
let sharedQuery: QueryJson

const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: (await res.text()).replaceAll('<!-- -->', '') }
}
type Props = {
  query: Record<string, unknown> & { id: number; name: string; version: number }
  visualizations: { id: number; type: string; name: string }[]
  permissions: { canEdit: boolean; canSchedule: boolean; canFork: boolean; canExecute: boolean; isOwnerOrAdmin: boolean; holdsApiKey: boolean }
  refreshIntervals: number[]
  autoPublishNamedQueries: boolean
}
const pageProps = (html: string) => islandProps(html, 'QueryPage') as unknown as Props

beforeAll(async () => {
  f = await queryFixture()
  bosQuery = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Orders', query: 'select 1 as n', tags: ['sales'] })
  sharedQuery = await newQuery(f.admin, { data_source_id: f.shared, name: 'Shared numbers', query: 'select 2 as n' })
})
afterAll(() => f.t.close())

describe('/queries/{id}', () => {
  it('shows the owner the header, the Table tab and every control, with the island’s data', async () => {
    const { status, html } = await page(f.bo, `/queries/${bosQuery.id}`)
    expect(status).toBe(200)
    expect(islandsOf(html)).toEqual([...shellIslands(), 'QueryPage', 'SubscribeDialog'].sort())
    expect(html).toContain('<title>Orders')
    expect(html).toContain('value="Orders"')
    expect(html).toContain('role="tab"')
    expect(html).toContain('>Table</button>')
    expect(html).toContain('Edit Source')
    expect(html).toContain('>Publish</button>')
    expect(html).toContain('Refresh Now')
    const props = pageProps(html)
    expect(props.query).toMatchObject({ id: bosQuery.id, name: 'Orders', version: bosQuery.version, is_draft: true, tags: ['sales'] })
    expect(props.visualizations).toEqual([{ id: expect.any(Number), type: 'TABLE', name: 'Table', options: {} }])
    expect(props.permissions).toEqual({ canEdit: true, canSchedule: true, canFork: true, canExecute: true, isOwnerOrAdmin: true, holdsApiKey: true })
    expect(props.refreshIntervals).toContain(86400)
    expect(props.autoPublishNamedQueries).toBe(true)
  })

  it('never puts the API key in the page: the Show API Key dialog fetches it', async () => {
    for (const client of [f.bo, f.cleo]) {
      const { html } = await page(client, `/queries/${bosQuery.id}`)
      expect(html).not.toContain(bosQuery.api_key)
      expect(pageProps(html).query).not.toHaveProperty('api_key')
    }
  })

  it('is read-only for a colleague: no Publish, no schedule, no Archive; View Source instead of Edit Source', async () => {
    const { status, html } = await page(f.cleo, `/queries/${bosQuery.id}`)
    expect(status).toBe(200)
    expect(html).not.toContain('>Publish</button>')
    expect(html).toContain('View Source')
    expect(pageProps(html).permissions).toEqual({ canEdit: false, canSchedule: false, canFork: true, canExecute: true, isOwnerOrAdmin: false, holdsApiKey: false })
  })

  it('lets a view-only user see a query on a view-only source, without fork or edit', async () => {
    const { status, html } = await page(f.vi, `/queries/${sharedQuery.id}`)
    expect(status).toBe(200)
    expect(pageProps(html).permissions).toMatchObject({ canEdit: false, canFork: false, canSchedule: false })
  })

  it('gives an editor without schedule_query no schedule dialog', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Lou’s', query: 'select 4' })
    await f.t.db.sql`update queries set user_id = ${f.ids.lou} where id = ${q.id}`
    const props = pageProps((await page(f.lou, `/queries/${q.id}`)).html)
    expect(props.permissions).toMatchObject({ canEdit: true, canSchedule: false })
  })

  it('is 404 for a query on a source the user has no access to, and for one that does not exist', async () => {
    for (const path of [`/queries/${sharedQuery.id}`, '/queries/999999']) {
      const { status, html } = await page(f.bo, path)
      expect(status).toBe(404)
      expect(html).toContain(NOT_FOUND)
    }
  })

  it('is 403 for someone without view_query', async () => {
    const sql = f.t.db.sql
    const { id } = await addUser(f.t, { name: 'Dot', email: 'dot@example.com', password: 'dot-password' })
    const [org] = await sql<{ id: number }[]>`select id from organizations`
    const [group] = await sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Dashboards only', ${['list_dashboards']}) returning id`
    await sql`update user_groups set group_id = ${group.id} where user_id = ${id}`
    const { client } = await signInAs(f.t.app, 'dot@example.com', 'dot-password')
    const { status, html } = await page(client, `/queries/${bosQuery.id}`)
    expect(status).toBe(403)
    expect(html).toContain(FORBIDDEN)
  })

  it('sends an anonymous visitor to sign in', async () => {
    const res = await new Client(f.t.app).get(`/queries/${bosQuery.id}`)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(`/queries/${bosQuery.id}`)}`)
  })

  it('marks an archived query and offers no changes', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Old', query: 'select 3' })
    expect((await f.bo.request('DELETE', `/api/queries/${q.id}`)).status).toBe(200)
    const { status, html } = await page(f.bo, `/queries/${q.id}`)
    expect(status).toBe(200)
    expect(html).toContain('This query is archived')
    expect(pageProps(html).permissions).toMatchObject({ canEdit: false, canSchedule: false, canExecute: false })
  })

  it('leaves the list pages where they were: /queries/my is still the list', async () => {
    const { status, html } = await page(f.bo, '/queries/my')
    expect(status).toBe(200)
    expect(islandsOf(html)).not.toContain('QueryPage')
  })
})

describe('charts drawn on the server', () => {
  const CHART = { type: 'CHART', name: 'Amounts', options: { globalSeriesType: 'column', columnMapping: { label: 'x', amount: 'y' } } }
  const ROWS = "select 'item ' || n as label, n * 10 as amount from generate_series(1, 4) n"

  /** A query of Bo's with a stored result (run by the worker's task) and a bar chart. */
  async function chartedQuery(body: Record<string, unknown> = {}) {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Charted', query: ROWS, ...body })
    const run = await f.bo.post(`/api/queries/${q.id}/results`, { parameters: {}, max_age: 0 })
    expect(run.status).toBe(200)
    await runJobs(f.t)
    const chart = await (await f.bo.post('/api/visualizations', { query_id: q.id, ...CHART })).json() as { id: number }
    const latest = (await (await f.bo.get(`/api/queries/${q.id}`)).json() as { latest_query_data_id: number }).latest_query_data_id
    expect(latest).toEqual(expect.any(Number))
    return { q, chart, latest }
  }
  const chartMarkup = (html: string, id: number) => new RegExp(`data-chart-output="${id}"[^>]*><svg[\\s\\S]*?</svg>`).exec(html)?.[0]

  it('puts the chart as SVG in the page once, and tells the island which result it was drawn from', async () => {
    const { q, chart, latest } = await chartedQuery()
    const { html } = await page(f.bo, `/queries/${q.id}`)
    const markup = chartMarkup(html, chart.id)
    expect(markup).toBeDefined()
    expect(markup!.match(/<rect/g)).toHaveLength(4)
    // the Table is the first tab: the chart waits in the page, hidden, for a link to it
    expect(markup).toContain('data-drawn-by="server"')
    expect(html).toMatch(new RegExp(`<div hidden=""[^>]*data-chart-id="${chart.id}"`))
    const props = pageProps(html) as Props & { prerendered: unknown }
    expect(props.prerendered).toEqual({ ids: [chart.id], resultId: latest, width: expect.any(Number), height: expect.any(Number) })
    // once: the island's props (JSON, with < escaped) do not carry the markup again
    expect(/data-island-props="\w+">[^<]*\\u003csvg/.test(html)).toBe(false)
    // the Table tab waits for the page's script to load the result; without script, it offers the result's files
    expect(html).toContain('Loading results…')
    expect(html).toContain(`href="/api/queries/${q.id}/results/${latest}.csv"`)
  })

  it('draws nothing for a query whose parameters may ask for another result, nor when the address asks for a fresh run', async () => {
    const { q } = await chartedQuery({ query: `${ROWS} where n < {{ top }}`, options: { parameters: [{ name: 'top', title: 'Top', type: 'number', value: 5 }] } })
    expect(pageProps((await page(f.bo, `/queries/${q.id}`)).html)).toMatchObject({ prerendered: null })
    const plain = await chartedQuery()
    const { html } = await page(f.bo, `/queries/${plain.q.id}?maxAge=0`)
    expect(pageProps(html)).toMatchObject({ prerendered: null })
    expect(html).not.toContain('data-chart-output')
  })

  it('draws for a colleague who may only look, with no controls to change it', async () => {
    const { q, chart } = await chartedQuery()
    const { html } = await page(f.cleo, `/queries/${q.id}`)
    expect(chartMarkup(html, chart.id)).toBeDefined()
    expect(html).not.toContain('Add Visualization')
    expect(html).not.toContain('data-delete-tab')
  })
})
