import { beforeAll, describe, expect, it } from 'vitest'
import { addUser, browserSuite, jobEnd, MEMBER, PHONE, signInOverHttp, warehouseOptions } from './support.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * Add to Dashboard on the query page (spec 2 §2): a member searches the dashboards they may change, adds the chart
 * shown as a widget at the lowest free position (spec 2 §4), and follows the link to that dashboard.
 */
const suite = browserSuite({ role: 'all' }) // a worker too, so the query has a stored result
const { api } = suite
let member: Map<string, string>
let query: { id: number }
let chart: { id: number }

interface Position { col: number; row: number; sizeX: number; sizeY: number }
type Board = { id: number; slug: string; widgets: { id: number; visualization?: { id: number }; options: { position: Position } }[] }

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  query = await api('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders by region', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
  }, member)
  chart = await api('POST', '/api/visualizations', {
    query_id: query.id, type: 'CHART', name: 'Orders chart', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  }, member)
  await api('POST', `/api/queries/${query.id}`, { is_draft: false }, member)
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 }, member)
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
}, 60_000)

describe('Add to Dashboard', () => {
  it('adds the chart shown beside the half-width widget of a dashboard the member may change, and links to it', async () => {
    const mine = await api<Board>('POST', '/api/dashboards', { name: 'Regional board' }, member)
    await api('POST', '/api/widgets', { dashboard_id: mine.id, visualization_id: null, text: 'Notes', options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 6 } } }, member)
    const others = await api<Board>('POST', '/api/dashboards', { name: 'Regional board of the admin' })
    await api('POST', `/api/dashboards/${others.id}`, { is_draft: false })

    const { page, problems } = await suite.open(`/queries/${query.id}#${chart.id}`, { as: member })
    await page.getByRole('button', { name: 'Add to Dashboard' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add to Dashboard' })
    const search = dialog.getByPlaceholder('Search Dashboards...')
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true)
    await search.fill('Regional')
    await dialog.getByRole('button', { name: 'Regional board', exact: true }).waitFor()
    // a published dashboard of someone else's is listed on the dashboards page, but is not the member's to change
    expect(await dialog.getByRole('button', { name: 'Regional board of the admin' }).count()).toBe(0)
    await dialog.getByRole('button', { name: 'Regional board', exact: true }).click()
    await dialog.getByRole('button', { name: 'Add to Dashboard' }).click()
    await dialog.getByText('Widget added to Regional board.').waitFor()

    const widgets = (await api<Board>('GET', `/api/dashboards/${mine.id}`, undefined, member)).widgets
    expect(widgets).toHaveLength(2)
    expect(widgets[1].visualization?.id).toBe(chart.id)
    expect(widgets[1].options.position).toMatchObject({ col: 3, row: 0, sizeX: 3 })
    await dialog.getByRole('link', { name: 'Open Regional board' }).click()
    await page.waitForURL(new RegExp(`/dashboards/${mine.id}-`))
    await page.locator(`[data-chart-output="${chart.id}"], [data-widget-id="${widgets[1].id}"]`).first().waitFor()
    expect(problems).toEqual([])
  })

  it('is there on a phone too, and lays out cleanly', async () => {
    const { page } = await suite.open(`/queries/${query.id}#${chart.id}`, { as: member, viewport: PHONE })
    await page.getByRole('button', { name: 'Add to Dashboard' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add to Dashboard' })
    await dialog.getByRole('button', { name: 'Regional board', exact: true }).waitFor()
    expect(await layoutProblems(page, { scope: '[role=dialog] *' })).toEqual([])
  })
})
