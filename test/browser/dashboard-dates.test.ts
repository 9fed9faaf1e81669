import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, jobEnd, settled, warehouseOptions } from './support.ts'

/**
 * Dates in a dashboard's table widgets as a member reads them: in the organization's date and time formats, the same
 * text as the query page's results, whether the server drew the widget with the page or again after a refresh.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
let queryId = 0
let boardPath = ''

beforeAll(async () => {
  await api('POST', '/api/settings/organization', { date_format: 'DD.MM.YYYY', time_format: 'HH:mm:ss' })
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const query = await api<{ id: number; visualizations: { id: number; type: string }[] }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders placed',
    query: "select timestamp '2024-03-05 14:07:09' as placed_at, date '2024-03-06' as shipped_on, 'order-1' as item",
  })
  queryId = query.id
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const table = query.visualizations.find((v) => v.type === 'TABLE')!
  const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Dated board' })
  await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: table.id, options: { position: { col: 0, row: 0, sizeX: 6, sizeY: 6 } } })
  await api('POST', `/api/dashboards/${board.id}`, { is_draft: false })
  boardPath = `/dashboards/${board.id}-${board.slug}`
}, 90_000)

const widgetCells = (page: Page) => page.locator('article[data-widget-id] td').allTextContents()

describe("a dashboard's table widget", () => {
  it("writes dates in the organization's formats, as the query page does, drawn with the page and after a refresh", async () => {
    const { page: queryPage } = await suite.open(`/queries/${queryId}`)
    const grid = queryPage.locator('[data-results-grid] [role="cell"]')
    await grid.first().waitFor()
    const onQueryPage = await grid.allTextContents()
    expect(onQueryPage).toEqual(expect.arrayContaining(['05.03.2024 14:07:09', '06.03.2024']))

    const { page, problems } = await suite.open(boardPath, { viewport: DESKTOP })
    expect(await widgetCells(page)).toEqual(['05.03.2024 14:07:09', '06.03.2024', 'order-1'])

    await page.locator('sightline-island[data-name="DashboardWidget"][data-hydrated]').waitFor({ state: 'attached' })
    await settled(page)
    await page.getByRole('button', { name: 'Refresh', exact: true }).click()
    await page.locator('article[data-widget-id] [data-drawn-by="redrawn"] td').first().waitFor()
    expect(await widgetCells(page)).toEqual(['05.03.2024 14:07:09', '06.03.2024', 'order-1'])
    expect(problems).toEqual([])
  })
})
