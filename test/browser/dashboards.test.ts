import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, jobEnd, PHONE, waitForIslands, warehouseOptions } from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * Dashboards in a real browser: the New Dashboard dialog from the Create menu's address, the lists with search as
 * you type, and a dashboard's grid on a desk and on a phone (its server drawing is read in test/pages/dashboards.test.ts).
 */
const suite = browserSuite({ role: 'all' }) // a worker too, so the queries run to stored results
const { open, api } = suite
let boardPath: string

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const query = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders by region',
    query: "select * from (values ('North', 120), ('South', 80), ('West', 45)) as t(region, orders)",
  })
  const chart = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: query.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Regional orders' })
  await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: chart.id, options: { position: { col: 0, row: 0, sizeX: 4, sizeY: 8 } } })
  await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: query.visualizations[0].id, options: { position: { col: 4, row: 0, sizeX: 2, sizeY: 8 } } })
  await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: null, text: '**Figures** are from the warehouse.', options: { position: { col: 0, row: 8, sizeX: 6, sizeY: 2 } } })
  await api('POST', `/api/dashboards/${board.id}`, { is_draft: false, tags: ['regions'] })
  boardPath = `/dashboards/${board.id}-${board.slug}`
}, 60_000)

describe('the New Dashboard dialog', () => {
  it('needs a name, then makes the dashboard and opens it in edit mode', async () => {
    const { page, problems } = await open('/dashboards/new')
    const dialog = page.getByRole('dialog', { name: 'New Dashboard' })
    const save = dialog.getByRole('button', { name: 'Save' })
    expect(await save.isDisabled()).toBe(true)
    await dialog.getByPlaceholder('Dashboard Name').fill('   ')
    expect(await save.isDisabled()).toBe(true)
    await dialog.getByPlaceholder('Dashboard Name').fill('  Weekly review  ')
    await dialog.getByPlaceholder('Dashboard Name').press('Enter')
    await page.waitForURL(/\/dashboards\/\d+-weekly-review\?edit$/)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Weekly review')
    // edit mode: the empty dashboard's place is taken by the grid and its add panel
    await page.getByRole('button', { name: 'Done Editing' }).waitFor()
    await page.getByRole('button', { name: 'Add Widget' }).waitFor()
    expect(problems).toEqual([])
  })

  it('goes back to the list when closed', async () => {
    const { page } = await open('/dashboards/new')
    await page.getByRole('dialog', { name: 'New Dashboard' }).getByRole('button', { name: 'Close' }).last().click()
    await page.waitForURL(/\/dashboards$/)
    expect(await page.getByRole('dialog').count()).toBe(0)
  })
})

describe('the lists', () => {
  it('search as you type narrows the list, and the tag filter keeps to one tag', async () => {
    const { page } = await open('/dashboards')
    await page.getByRole('link', { name: 'Regional orders' }).waitFor()
    await page.getByRole('searchbox', { name: 'Search dashboards' }).fill('nothing like this')
    await page.getByText("Sorry, we couldn't find anything.").waitFor()
    await page.getByRole('searchbox', { name: 'Search dashboards' }).fill('regional')
    await page.getByRole('link', { name: 'Regional orders' }).waitFor()
    expect(new URL(page.url()).searchParams.get('q')).toBe('regional')
    await page.goto(suite.server.url + '/dashboards?tags=regions')
    expect(await page.locator('#list-results tbody tr').count()).toBe(1)
  })
})

describe('a dashboard', () => {
  it('places widgets on the 6-column grid on a desk, and stacks them in reading order on a phone, readable by all', async () => {
    const desk = await open(boardPath, { viewport: DESKTOP })
    await waitForIslands(desk.page)
    const boxes = await desk.page.locator('[data-widget-id]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    expect(boxes).toHaveLength(3)
    // the chart and the table side by side, the text box below both
    expect(Math.abs(boxes[0].top - boxes[1].top)).toBeLessThan(2)
    expect(boxes[1].left).toBeGreaterThan(boxes[0].right - 1)
    expect(boxes[2].top).toBeGreaterThan(boxes[0].bottom - 1)
    expect(await seriousA11yViolations(desk.page)).toEqual([])
    expect(await layoutProblems(desk.page, { scope: 'main *' })).toEqual([])

    const phone = await open(boardPath, { viewport: PHONE })
    const stacked = await phone.page.locator('[data-widget-id]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    expect(stacked[1].top).toBeGreaterThan(stacked[0].bottom - 1)
    expect(stacked[2].top).toBeGreaterThan(stacked[1].bottom - 1)
    expect(await layoutProblems(phone.page, { scope: 'main *', skip: '[data-widget-id] > div' })).toEqual([])
  })
})
