import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runJobs, type Client } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture } from './queries-fixture.ts'

/**
 * The dashboard page drawn on the server (spec 2 §2): the charts are in the HTML itself, text boxes are markdown
 * made safe, and a widget whose query the viewer may not see says so and nothing more.
 */
let f: QueryFixture
let board: number
const firstViz = (q: Record<string, unknown>) => (q.visualizations as { id: number }[])[0].id

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: await res.text(), location: res.headers.get('location') }
}

beforeAll(async () => {
  f = await queryFixture()
  const sales = await newQuery(f.bo, {
    data_source_id: f.warehouse, name: 'Sales by region',
    query: "select * from (values ('North', 120), ('South', 80), ('West', 45)) as t(region, sales)",
  })
  const chart = await json(f.bo.post('/api/visualizations', {
    query_id: sales.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', sales: 'y' } },
  }))
  await json(f.bo.post(`/api/queries/${sales.id}/results`, {}))
  await runJobs(f.t)
  const secret = await newQuery(f.admin, { data_source_id: f.shared, name: 'Payroll', query: 'select 1 as salary' })
  board = (await json(f.bo.post('/api/dashboards', { name: 'Sales Overview' }))).id
  const add = (body: Record<string, unknown>) => json(f.admin.post('/api/widgets', { dashboard_id: board, ...body }))
  await add({ visualization_id: chart.id, options: { position: { col: 0, row: 0, sizeX: 4, sizeY: 8 } } })
  await add({ visualization_id: firstViz(sales), options: { position: { col: 4, row: 0, sizeX: 2, sizeY: 8 } } })
  await add({ visualization_id: null, text: '## Read me\n\n<script>alert(1)</script> [bad](javascript:alert(2)) [good](https://example.com)', options: { position: { col: 0, row: 8, sizeX: 6, sizeY: 3 } } })
  await add({ visualization_id: firstViz(secret), options: { position: { col: 0, row: 11, sizeX: 3, sizeY: 4 } } })
  await json(f.bo.post(`/api/dashboards/${board}`, { is_draft: false }))
})
afterAll(() => f.t.close())

describe('the dashboard page', () => {
  it('shows every chart drawn on the server, with the numbers in the HTML', async () => {
    const { status, html } = await page(f.cleo, `/dashboards/${board}-sales-overview`)
    expect(status).toBe(200)
    expect(html).toContain('<h1 class="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">Sales Overview</h1>')
    // the bar chart as SVG, and the table with its rows
    expect(html).toMatch(/<svg[^>]*>/)
    for (const value of ['North', 'South', 'West', '120', '80', '45']) expect(html).toContain(value)
    expect(html).toContain('href="/queries/')
  })

  it('renders text boxes as markdown, with HTML shown as text and unsafe links dropped', async () => {
    const { html } = await page(f.cleo, `/dashboards/${board}`)
    expect(html).toContain('<h2>Read me</h2>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    // the bad link stays as text: no address that runs script
    expect(html).not.toMatch(/href="javascript:/i)
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">good</a>')
  })

  it('tells a viewer without the source that the widget needs it, and shows nothing of its query', async () => {
    const forCleo = (await page(f.cleo, `/dashboards/${board}`)).html
    expect(forCleo).toContain('This widget requires access to a data source you don&#x27;t have access to.')
    expect(forCleo).not.toContain('Payroll')
    expect(forCleo).not.toContain('salary')
    // vi has the source view-only: she sees the chart's query
    expect((await page(f.vi, `/dashboards/${board}`)).html).toContain('Payroll')
  })

  it('moves the legacy address to the canonical one, answers 404 for unknown ones and sends strangers to sign in', async () => {
    const [{ slug }] = await f.t.db.sql<{ slug: string }[]>`select slug from dashboards where id = ${board}`
    const legacy = await page(f.cleo, `/dashboard/${slug}`)
    expect(legacy.status).toBe(302)
    expect(legacy.location).toBe(`/dashboards/${board}-sales-overview`)
    expect((await page(f.cleo, '/dashboards/999999')).status).toBe(404)
    expect((await page(f.cleo, '/dashboard/no-such-board')).status).toBe(404)
    const stranger = await f.t.app.request(`/dashboards/${board}`)
    expect(stranger.status).toBe(302)
    expect(stranger.headers.get('location')).toMatch(/^\/login/)
  })

  it('counts the visit in the viewer\'s recent dashboards', async () => {
    await page(f.vi, `/dashboards/${board}`)
    const recent = await json(f.vi.get('/api/dashboards/recent'))
    expect(recent.map((d: { id: number }) => d.id)).toContain(board)
  })
})

describe('the dashboard lists', () => {
  it('lists published dashboards with their owner and tags, and links each to its page', async () => {
    await json(f.bo.post(`/api/dashboards/${board}`, { tags: ['sales'] }))
    const { status, html } = await page(f.cleo, '/dashboards')
    expect(status).toBe(200)
    expect(html).toContain(`href="/dashboards/${board}-sales-overview"`)
    expect(html).toContain('Search Dashboards...')
    expect(html).toContain('>Bo<')
    expect(html).toContain('All Dashboards')
  })

  it('says why a list is empty, in the spec\'s words', async () => {
    expect((await page(f.cleo, '/dashboards?q=nothing-like-this')).html).toContain('Sorry, we couldn&#x27;t find anything.')
    expect((await page(f.cleo, '/dashboards?tags=nope')).html).toContain('No dashboards found tagged with nope.')
    expect((await page(f.cleo, '/dashboards/favorites')).html).toContain('Mark dashboards as Favorite to list them here.')
    expect((await page(f.cleo, '/dashboards/my')).html).toContain('Create your first dashboard!')
  })

  it('opens the New Dashboard dialog at /dashboards/new for those who may create, and shows the button only to them', async () => {
    const withDialog = (await page(f.cleo, '/dashboards/new')).html
    expect(withDialog).toContain('<sightline-island data-name="NewDashboardDialog"')
    expect(withDialog).toContain('New Dashboard')
    // lou's only group gives view_query and edit_query: no dashboards at all
    expect((await page(f.lou, '/dashboards')).status).toBe(403)
  })
})
