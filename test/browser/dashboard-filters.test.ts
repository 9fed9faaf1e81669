import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, jobEnd, settled, toastWith, warehouseOptions } from './support.ts'

/**
 * Result filters on a dashboard in a real browser: columns named `x::filter` / `x::multi-filter` give a widget a
 * filter over the rows it already has, which redraws its chart in the browser; with the dashboard's filters merged,
 * one panel above the grid filters every widget with that column, and the address pre-selects, already in the
 * server's drawing.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
const boards = { single: '', multi: '', merged: '', separate: '', plain: '', param: '', paramMerged: '', ticking: '' }

type Query = { id: number; visualizations: { id: number }[] }
async function ranQuery(name: string, query: string, parameters: unknown[] = []) {
  const q = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query, options: { parameters } })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  return q
}
async function newBoard(name: string, visualizations: number[], filtersEnabled = false) {
  const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
  for (const [i, id] of visualizations.entries()) {
    await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: id, options: { position: { col: i * 3, row: 0, sizeX: 3, sizeY: 8 } } })
  }
  await api('POST', `/api/dashboards/${board.id}`, { is_draft: false, dashboard_filters_enabled: filtersEnabled })
  return `/dashboards/${board.id}-${board.slug}`
}
let warehouse = 0
let orders: Query
let stock: Query

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  // South comes first, so the default choice (the first row's value) differs from North
  orders = await ranQuery('Orders', `select * from (values ('South', 'order-s1'), ('North', 'order-n1'), ('North', 'order-n2'), ('East', 'order-e1')) as t("region::filter", item)`)
  stock = await ranQuery('Stock', `select * from (values ('North', 'stock-n1'), ('West', 'stock-w1')) as t("region::filter", item)`)
  const tagged = await ranQuery('Tagged', `select * from (values ('red', 'item-r'), ('blue', 'item-b'), ('green', 'item-g')) as t("colour::multi-filter", item)`)
  const plain = await ranQuery('Plain', `select 'anywhere' as region, 1 as n`)
  boards.plain = await newBoard('No filters', [plain.visualizations[0].id], true)
  boards.single = await newBoard('One filter', [orders.visualizations[0].id])
  boards.multi = await newBoard('Multi filter', [tagged.visualizations[0].id])
  boards.merged = await newBoard('Merged filters', [orders.visualizations[0].id, stock.visualizations[0].id], true)
  boards.separate = await newBoard('Separate filters', [orders.visualizations[0].id, stock.visualizations[0].id])
  // a query with a parameter: the page draws nothing of it, its filters are known once it ran in the browser
  const regional = await ranQuery('Regional', `select * from (values ('North', 'reg-n' || {{ n }}), ('South', 'reg-s' || {{ n }})) as t("region::filter", item)`,
    [{ name: 'n', title: 'N', type: 'number', value: 1 }])
  boards.param = await newBoard('Parameter filters', [regional.visualizations[0].id])
  // the same, never run with its default: the page cannot draw it, its filters come once it ran in the browser
  const fresh = await api<Query>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Fresh regional', query: `select * from (values ('North', 'fresh-n' || {{ n }}), ('South', 'fresh-s' || {{ n }})) as t("region::filter", item)`,
    options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 3 }] },
  })
  boards.paramMerged = await newBoard('Parameter merged filters', [fresh.visualizations[0].id, stock.visualizations[0].id], true)
  // every run brings a new value
  const ticking = await ranQuery('Ticking', `select to_char(clock_timestamp(), 'HH24:MI:SS.US') as "tick::filter", 1 as n`)
  boards.ticking = await newBoard('Ticking filters', [ticking.visualizations[0].id])
}, 120_000)

async function openBoard(path: string) {
  const opened = await suite.newPage({ viewport: DESKTOP })
  await opened.page.goto(suite.server.url + path)
  await opened.page.locator('sightline-island[data-name="DashboardWidget"][data-hydrated]').first().waitFor({ state: 'attached' })
  await settled(opened.page)
  return opened
}
const widget = (page: Page, queryName: string) => page.locator('article[data-widget-id]', { has: page.getByRole('heading', { name: queryName }) })
const shows = (page: Page, queryName: string, text: string) => widget(page, queryName).getByText(text, { exact: true }).count()

describe('a widget with a filter column', () => {
  it('shows the filter on its card and redraws with only the chosen rows', async () => {
    const { page, problems } = await openBoard(boards.single)
    const card = widget(page, 'Orders')
    // the first row's value is chosen at first
    expect(await shows(page, 'Orders', 'order-s1')).toBe(1)
    expect(await shows(page, 'Orders', 'order-n1')).toBe(0)
    const select = card.getByRole('group', { name: /^Filters of / }).getByLabel('region')
    expect(await select.inputValue()).toBe('South')
    await select.selectOption('North')
    await card.locator('[data-drawn-by="redrawn"]').getByText('order-n2', { exact: true }).waitFor()
    expect(await shows(page, 'Orders', 'order-n1')).toBe(1)
    expect(await shows(page, 'Orders', 'order-s1')).toBe(0)
    expect(await shows(page, 'Orders', 'order-e1')).toBe(0)
    // the expanded view draws the same rows
    await card.getByRole('button', { name: /^Actions for / }).click()
    await page.getByRole('menuitem', { name: 'Expand' }).click()
    const dialog = page.getByRole('dialog', { name: /Orders/ })
    await dialog.locator('[data-drawn-by="redrawn"]').getByText('order-n1', { exact: true }).waitFor()
    expect(await dialog.getByText('order-s1', { exact: true }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('offers a multi-filter with Select All and Clear, and says No values when nothing is chosen', async () => {
    const { page, problems } = await openBoard(boards.multi)
    const card = widget(page, 'Tagged')
    expect(await shows(page, 'Tagged', 'item-r')).toBe(1)
    expect(await shows(page, 'Tagged', 'item-b')).toBe(0)
    await card.getByRole('button', { name: 'colour' }).click()
    await page.getByRole('button', { name: 'Select All' }).click()
    await card.locator('[data-drawn-by="redrawn"]').getByText('item-g', { exact: true }).waitFor()
    expect(await shows(page, 'Tagged', 'item-b')).toBe(1)
    expect(await shows(page, 'Tagged', 'item-r')).toBe(1)
    await page.getByRole('button', { name: 'Clear' }).click()
    await card.getByText('item-r', { exact: true }).waitFor({ state: 'detached' })
    expect(await shows(page, 'Tagged', 'item-g')).toBe(0)
    expect(await card.getByRole('button', { name: 'colour' }).textContent()).toContain('No values')
    await page.getByRole('checkbox', { name: 'blue' }).check()
    await card.getByText('item-b', { exact: true }).waitFor()
    expect(await shows(page, 'Tagged', 'item-r')).toBe(0)
    expect(problems).toEqual([])
  })
})

describe('the dashboard\'s filters', () => {
  it('offers no filters, and loads no filter code, where no result has a filter column', async () => {
    const { page, scripts, problems } = await openBoard(boards.plain)
    expect(await page.locator('[data-dashboard-filters], [data-widget-filters]').count()).toBe(0)
    expect(scripts.filter((url) => url.includes('DashboardFilters'))).toEqual([])
    expect(problems).toEqual([])
  })

  it('merges same-named filters into one panel whose choice filters every widget and is written to the address', async () => {
    const { page, problems } = await openBoard(boards.merged)
    const panel = page.getByRole('region', { name: 'Filters' })
    expect(await page.locator('[data-widget-filters]').count()).toBe(0)
    const select = panel.getByLabel('region')
    expect(await select.locator('option').allTextContents()).toEqual(['East', 'North', 'South', 'West'])
    await select.selectOption('West')
    await widget(page, 'Stock').locator('[data-drawn-by="redrawn"]').getByText('stock-w1', { exact: true }).waitFor()
    await widget(page, 'Orders').locator('[data-drawn-by="redrawn"]').waitFor()
    expect(await shows(page, 'Orders', 'order-s1')).toBe(0)
    expect(await shows(page, 'Orders', 'order-n1')).toBe(0)
    expect(await shows(page, 'Stock', 'stock-n1')).toBe(0)
    expect(new URL(page.url()).searchParams.get('region')).toBe('West')
    expect(problems).toEqual([])
  })

  it('keeps each widget\'s filter on its own card when the dashboard\'s filters are not merged', async () => {
    const { page, problems } = await openBoard(boards.separate)
    expect(await page.locator('[data-dashboard-filters]').count()).toBe(0)
    expect(await page.locator('[data-widget-filters]').count()).toBe(2)
    await widget(page, 'Stock').getByLabel('region').selectOption('West')
    await widget(page, 'Stock').locator('[data-drawn-by="redrawn"]').getByText('stock-w1', { exact: true }).waitFor()
    expect(await shows(page, 'Orders', 'order-s1')).toBe(1)
    expect(await widget(page, 'Orders').getByLabel('region').inputValue()).toBe('South')
    expect(problems).toEqual([])
  })

  it('pre-selects from the address, already in the server\'s drawing with script off', async () => {
    const { page } = await suite.open(`${boards.merged}?region=North`, { script: false })
    expect(await shows(page, 'Orders', 'order-n1')).toBe(1)
    expect(await shows(page, 'Orders', 'order-n2')).toBe(1)
    expect(await shows(page, 'Orders', 'order-s1')).toBe(0)
    expect(await shows(page, 'Stock', 'stock-n1')).toBe(1)
    expect(await shows(page, 'Stock', 'stock-w1')).toBe(0)
    const live = await openBoard(`${boards.single}?region=North`)
    expect(await widget(live.page, 'Orders').getByLabel('region').inputValue()).toBe('North')
    expect(await shows(live.page, 'Orders', 'order-s1')).toBe(0)
  })
})

describe('filters and runs in the browser', () => {
  it('replaces the address when a card\'s filter is chosen: no new history entry', async () => {
    const { page, problems } = await openBoard(boards.single)
    const entries = await page.evaluate(() => history.length)
    await widget(page, 'Orders').getByLabel('region').selectOption('East')
    await widget(page, 'Orders').locator('[data-drawn-by="redrawn"]').getByText('order-e1', { exact: true }).waitFor()
    expect(new URL(page.url()).searchParams.get('region')).toBe('East')
    expect(await page.evaluate(() => history.length)).toBe(entries)
    await page.reload()
    expect(await shows(page, 'Orders', 'order-e1')).toBe(1)
    expect(await shows(page, 'Orders', 'order-s1')).toBe(0)
    expect(problems).toEqual([])
  })

  it('gives a widget with parameters its filter, drawn by the page or once it ran, on its card and in the merged panel', async () => {
    // its default value ran before: the page draws it, with script off too
    const still = await suite.open(`${boards.param}?region=South`, { script: false })
    expect(await shows(still.page, 'Regional', 'reg-s1')).toBe(1)
    expect(await shows(still.page, 'Regional', 'reg-n1')).toBe(0)
    const { page, problems } = await openBoard(boards.param)
    const card = widget(page, 'Regional')
    const select = card.getByRole('group', { name: /^Filters of / }).getByLabel('region')
    await select.waitFor()
    expect(await shows(page, 'Regional', 'reg-n1')).toBe(1)
    await select.selectOption('South')
    await card.locator('[data-drawn-by="redrawn"]').getByText('reg-s1', { exact: true }).waitFor()
    expect(await shows(page, 'Regional', 'reg-n1')).toBe(0)

    const merged = await openBoard(`${boards.paramMerged}?region=South`)
    const panel = merged.page.getByRole('region', { name: 'Filters' })
    // the panel had Stock's values; the fresh widget's join once it ran, and it draws the address's choice
    await widget(merged.page, 'Fresh regional').getByText('fresh-s3', { exact: true }).waitFor()
    expect(await shows(merged.page, 'Fresh regional', 'fresh-n3')).toBe(0)
    expect(await panel.getByLabel('region').locator('option').allTextContents()).toEqual(['North', 'West', 'South'])
    await panel.getByLabel('region').selectOption('North')
    await widget(merged.page, 'Fresh regional').getByText('fresh-n3', { exact: true }).waitFor()
    await widget(merged.page, 'Stock').getByText('stock-n1', { exact: true }).waitFor()
    expect(problems).toEqual([])
    expect(merged.problems).toEqual([])
  })

  it('adds the values a refresh brings to the filter\'s choices', async () => {
    const { page, problems } = await openBoard(boards.ticking)
    const select = widget(page, 'Ticking').getByLabel('tick')
    await expect.poll(() => select.locator('option').count(), { timeout: 20_000 }).toBe(1)
    await page.getByRole('button', { name: 'Refresh', exact: true }).click()
    await expect.poll(() => select.locator('option').count(), { timeout: 20_000 }).toBe(2)
    expect(problems).toEqual([])
  })
})

describe('Use Dashboard Level Filters, in edit mode', () => {
  const box = (page: Page) => page.getByRole('checkbox', { name: 'Use Dashboard Level Filters' })
  const idOf = (path: string) => Number(/\/dashboards\/(\d+)/.exec(path)![1])
  const stored = async (path: string) => (await api<{ dashboard_filters_enabled: boolean }>('GET', `/api/dashboards/${idOf(path)}`)).dashboard_filters_enabled

  it('ticks at once, and the merged panel takes over from the cards\' filters without a reload, and back', async () => {
    const path = await newBoard('Filters switched live', [orders.visualizations[0].id, stock.visualizations[0].id])
    const { page, problems } = await openBoard(`${path}?edit`)
    await page.locator('[data-edit-widget]').first().waitFor()
    await page.evaluate(() => Object.assign(window, { notReloaded: true }))
    expect(await page.locator('[data-widget-filters]').count()).toBe(2)
    expect(await page.locator('[data-dashboard-filters]').count()).toBe(0)

    // the server's answer is held: the box is ticked before it comes
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(`**/api/dashboards/${idOf(path)}`, async (route) => {
      if (route.request().method() === 'POST') await held
      await route.continue()
    })
    await box(page).click()
    expect(await box(page).isChecked()).toBe(true)
    await page.getByRole('region', { name: 'Filters' }).getByLabel('region').waitFor()
    expect(await page.locator('[data-widget-filters]').count()).toBe(0)
    release()
    await expect.poll(() => stored(path)).toBe(true)

    // the panel filters both widgets, as on a dashboard saved that way
    await page.getByRole('region', { name: 'Filters' }).getByLabel('region').selectOption('West')
    await widget(page, 'Stock').locator('[data-drawn-by="redrawn"]').getByText('stock-w1', { exact: true }).waitFor()

    await box(page).click()
    expect(await box(page).isChecked()).toBe(false)
    await page.locator('[data-dashboard-filters]').waitFor({ state: 'detached' })
    await page.locator('[data-widget-filters]').nth(1).waitFor()
    await expect.poll(() => stored(path)).toBe(false)
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
    expect(problems).toEqual([])
  })

  it('unticks again with an error notice when the save fails, and the cards keep their filters', async () => {
    const path = await newBoard('Filters refused', [orders.visualizations[0].id, stock.visualizations[0].id])
    const { page, problems } = await openBoard(`${path}?edit`)
    await page.locator('[data-edit-widget]').first().waitFor()
    await page.route(`**/api/dashboards/${idOf(path)}`, (route) => (route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Database is down.' }) })
      : route.continue()))
    await box(page).click()
    await toastWith(page, 'Dashboard update failed').waitFor()
    expect(await box(page).isChecked()).toBe(false)
    expect(await page.locator('[data-dashboard-filters]').count()).toBe(0)
    expect(await page.locator('[data-widget-filters]').count()).toBe(2)
    expect(await stored(path)).toBe(false)
    expect(problems.filter((p) => !/status of 500/.test(p))).toEqual([])
  })
})
