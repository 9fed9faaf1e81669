import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addUser, animationsDone, browserSuite, DESKTOP, jobEnd, MEMBER, PHONE, settled, signInOverHttp, waitForIslands, warehouseOptions, screenshot,
} from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * Visualizations on the query page in a real browser, against a real server and worker: adding one through the
 * Visualization Editor, editing and deleting it, who sees the controls, links to a tab, and the chart the server
 * draws before any script runs.
 */
const suite = browserSuite({ role: 'all' })
const { open, api } = suite
let member: Map<string, string>
let warehouse: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')
const SIX_BARS = "select 'item ' || n as label, n * 10 as amount from generate_series(1, 6) n"

type Vis = { id: number; type: string; name: string; options: Record<string, unknown> }
type Query = { id: number; visualizations: Vis[]; latest_query_data_id: number | null }

/** Run a saved query and wait for its result to be stored as its latest. */
async function runToEnd(queryId: number) {
  const answer = await api<{ job?: { id: string; status: number } }>('POST', `/api/queries/${queryId}/results`, { parameters: {}, max_age: 0 })
  if (answer.job) expect(await jobEnd(suite, answer.job)).toMatchObject({ status: 3 })
  expect((await api<Query>('GET', `/api/queries/${queryId}`)).latest_query_data_id).not.toBeNull()
}

/** A query with a stored result, and a bar chart of it when asked. */
async function queryWithResult(name: string, o: { chart?: boolean } = {}): Promise<{ query: Query; chart: Vis | null }> {
  const created = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query: SIX_BARS })
  await runToEnd(created.id)
  const chart = o.chart
    ? await api<Vis>('POST', '/api/visualizations', {
      query_id: created.id, type: 'CHART', name: 'Amounts', options: { globalSeriesType: 'column', columnMapping: { label: 'x', amount: 'y' } },
    })
    : null
  return { query: await api<Query>('GET', `/api/queries/${created.id}`), chart }
}

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  fs.mkdirSync(SHOTS, { recursive: true })
}, 60_000)

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true })
const bars = (page: Page, visId: number) => page.locator(`[data-chart-output="${visId}"] svg rect`).count()
const tabNames = (page: Page) => page.getByRole('tab').allTextContents()
/** Whether any of these scripts is the chart library's chunk (hashed names: known by one of Plot's messages). */
const chartLibraryIn = (scripts: string[]) =>
  scripts.some((url) => fs.readFileSync(path.join(import.meta.dirname, '../../dist', new URL(url).pathname), 'utf8').includes('invalid mark'))

describe('visualizations on the query page', () => {
  it('adds a chart through the editor: a new tab, chosen, with a bar per row, and its id in the address', async () => {
    const { query } = await queryWithResult('Amounts to chart')
    const { page, problems, scripts } = await open(`/queries/${query.id}`)
    await page.locator('[data-results-grid]').waitFor()
    expect(scripts.some((s) => /VisualizationEditorDialog/.test(s))).toBe(false)
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    await dialog.getByLabel('Visualization Type').selectOption('CHART')
    await dialog.getByLabel('X Column').selectOption('label')
    await dialog.getByLabel('Visualization Name').fill('Amount per item')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Visualization saved').waitFor()
    await dialog.waitFor({ state: 'detached' })
    expect(await tab(page, 'Amount per item').getAttribute('aria-selected')).toBe('true')
    const saved = (await api<Query>('GET', `/api/queries/${query.id}`)).visualizations.find((v) => v.name === 'Amount per item')!
    expect(saved.options).toMatchObject({ columnMapping: { label: 'x', amount: 'y' } })
    await expect.poll(() => bars(page, saved.id)).toBe(6)
    expect(new URL(page.url()).hash).toBe(`#${saved.id}`)
    expect(problems).toEqual([])
  })

  it('renames the chosen visualization, and the name stays after a reload', async () => {
    const { query, chart } = await queryWithResult('Amounts to rename', { chart: true })
    const { page, problems } = await open(`/queries/${query.id}#${chart!.id}`)
    expect(await tab(page, 'Amounts').getAttribute('aria-selected')).toBe('true')
    await page.getByRole('button', { name: 'Edit Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    expect(await dialog.getByLabel('Visualization Name').inputValue()).toBe('Amounts')
    await dialog.getByLabel('Visualization Name').fill('Amounts renamed')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await tab(page, 'Amounts renamed').waitFor()
    await page.reload()
    await waitForIslands(page)
    expect(await tabNames(page)).toEqual(['Table', 'Amounts renamed'])
    expect(await tab(page, 'Amounts renamed').getAttribute('aria-selected')).toBe('true')
    expect(problems).toEqual([])
  })

  it('deletes a visualization after confirmation; the first one has no delete', async () => {
    const { query, chart } = await queryWithResult('Amounts to delete', { chart: true })
    const { page, problems } = await open(`/queries/${query.id}`)
    expect(await page.locator('[data-delete-tab]').count()).toBe(1)
    await tab(page, 'Table').click()
    expect(await page.getByRole('button', { name: 'Delete Table' }).count()).toBe(0)
    // the cross on the tab, then the toolbar's button for the chosen tab
    await page.locator('[data-delete-tab]').click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Visualization' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(await tabNames(page)).toEqual(['Table', 'Amounts'])
    await tab(page, 'Amounts').click()
    await page.getByRole('button', { name: 'Delete Amounts' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect(await tabNames(page)).toEqual(['Table'])
    await page.reload()
    await waitForIslands(page)
    expect(await tabNames(page)).toEqual(['Table'])
    expect((await api<Query>('GET', `/api/queries/${query.id}`)).visualizations.map((v) => v.id)).not.toContain(chart!.id)
    expect(problems).toEqual([])
  })

  it('says so when a delete fails', async () => {
    const { query } = await queryWithResult('Amounts kept', { chart: true })
    const { page } = await open(`/queries/${query.id}`)
    await tab(page, 'Amounts').click()
    await page.route('**/api/visualizations/*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }))
    await page.getByRole('button', { name: 'Delete Amounts' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByText("Error deleting visualization. Maybe it's used in a dashboard?").waitFor()
    expect(await tabNames(page)).toEqual(['Table', 'Amounts'])
  })

  it('opens the editor before the query has run, and says so when a save fails', async () => {
    // a text no other test ran: a new query takes a stored result of the same text as its own
    const created = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name: 'Never run', query: `${SIX_BARS} -- never run` })
    const { page } = await open(`/queries/${created.id}`)
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    await dialog.getByText('Run the query to see a preview.').waitFor()
    await page.route('**/api/visualizations', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }))
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Visualization could not be saved').waitFor()
    expect(await dialog.isVisible()).toBe(true)
  })

  it('shows a viewer without edit rights no Add, Edit or Delete', async () => {
    const { query } = await queryWithResult('Amounts to view', { chart: true })
    const { page } = await open(`/queries/${query.id}`, { as: member })
    await tab(page, 'Amounts').click()
    await page.locator('[data-chart-output] svg').first().waitFor()
    for (const name of ['Add Visualization', 'Edit Visualization', 'Delete Amounts']) expect(await page.getByRole('button', { name }).count()).toBe(0)
    expect(await page.locator('[data-delete-tab]').count()).toBe(0)
  })
})

describe('charts drawn on the server', () => {
  it('shows the chart in the page with scripts off', async () => {
    const { query } = await queryWithResult('Amounts without script')
    // the first tab is all a page without script can show: here the query's first visualization became a chart
    const first = await api<Vis>('POST', `/api/visualizations/${query.visualizations[0].id}`, {
      type: 'CHART', name: 'Amounts', options: { globalSeriesType: 'column', columnMapping: { label: 'x', amount: 'y' } },
    })
    const { page } = await open(`/queries/${query.id}`, { script: false })
    const output = page.locator(`[data-chart-output="${first.id}"]`)
    expect(await output.isVisible()).toBe(true)
    expect(await output.getAttribute('data-drawn-by')).toBe('server')
    expect(await bars(page, first.id)).toBe(6)
    await screenshot(page, { path: path.join(SHOTS, 'query-page-chart-no-script.png') })
    // with scripts, the island takes over that markup as it is: no mismatch, no drawing again
    const live = await open(`/queries/${query.id}`)
    await live.page.locator('[data-row-count]').waitFor()
    await settled(live.page) // the island has measured its box and decided; a redraw would have asked for the chart library
    expect(await live.page.locator(`[data-chart-output="${first.id}"]`).getAttribute('data-drawn-by')).toBe('server')
    expect(chartLibraryIn(live.scripts)).toBe(false)
    expect(live.problems).toEqual([])
  })

  it('a link to a chart shows the server’s drawing without loading the chart library', async () => {
    const { query, chart } = await queryWithResult('Amounts linked', { chart: true })
    const { page, problems, scripts } = await open(`/queries/${query.id}#${chart!.id}`)
    const output = page.locator(`[data-chart-output="${chart!.id}"]`)
    await output.waitFor()
    expect(await output.isVisible()).toBe(true)
    await page.locator('[data-row-count]').waitFor()
    await settled(page)
    expect(await output.getAttribute('data-drawn-by')).toBe('server')
    expect(chartLibraryIn(scripts)).toBe(false)
    // a size well past the drawing's is drawn again, in the browser
    await page.setViewportSize(PHONE)
    await expect.poll(() => output.getAttribute('data-drawn-by')).toBe('browser')
    expect(chartLibraryIn(scripts)).toBe(true)
    expect(await bars(page, chart!.id)).toBe(6)
    expect(problems).toEqual([])
  })

  for (const [label, viewport, dark] of [['desktop', DESKTOP, false], ['phone', PHONE, false], ['desktop-dark', DESKTOP, true]] as const) {
    it(`at ${label} width the tabs, actions and chart fit`, async () => {
      const { query, chart } = await queryWithResult(`Amounts at ${label} width`, { chart: true })
      const { page } = await open(`/queries/${query.id}#${chart!.id}`, { viewport, dark })
      await page.locator('[data-row-count]').waitFor()
      await expect.poll(() => bars(page, chart!.id)).toBe(6)
      await screenshot(page, { path: path.join(SHOTS, `query-page-chart-${label}.png`), fullPage: true })
      expect(await layoutProblems(page, { scope: '[data-visualizations] *', skip: '[role="tablist"], [data-chart-output]' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'Add Visualization' }).click()
      await page.getByRole('dialog', { name: 'Visualization Editor' }).waitFor()
      await animationsDone(page)
      await screenshot(page, { path: path.join(SHOTS, `query-page-add-visualization-${label}.png`) })
    })
  }

  it('lays the configured tiles under a marker map, loaded by the browser', async () => {
    const points = 'select 51.3 + n * 0.05 as lat, -0.4 + n * 0.1 as lon from generate_series(1, 5) n'
    const created = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name: 'Stores', query: points })
    await runToEnd(created.id)
    const map = await api<Vis>('POST', '/api/visualizations', {
      query_id: created.id, type: 'MAP', name: 'Stores map',
      options: { latColumn: 'lat', lonColumn: 'lon', clusterMarkers: false, mapTileUrl: 'https://tiles.test/{z}/{x}/{y}.png' },
    })
    const { page } = await suite.newPage()
    // the tile server is a third party's: the browser's requests to it are answered here
    const asked: string[] = []
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
    await page.route('https://tiles.test/**', (route) => {
      asked.push(new URL(route.request().url()).pathname)
      return route.fulfill({ status: 200, contentType: 'image/png', body: png })
    })
    await page.goto(`${suite.server.url}/queries/${created.id}#${map.id}`)
    const chart = page.locator(`[data-chart-output="${map.id}"] svg`)
    await chart.waitFor()
    expect(await chart.locator('circle.sl-marker').count()).toBe(5)
    await expect.poll(() => asked.length).toBeGreaterThan(0)
    expect(asked.every((p) => /^\/\d+\/\d+\/\d+\.png$/.test(p))).toBe(true)
    expect(await chart.locator('image').count()).toBe(asked.length)
  })

  it('zooms in on a number axis by a drag across the chart, and back out with Reset zoom', async () => {
    const created = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name: 'Ten', query: 'select n as x, n * 10 as amount from generate_series(1, 10) n' })
    await runToEnd(created.id)
    const chart = await api<Vis>('POST', '/api/visualizations', {
      query_id: created.id, type: 'CHART', name: 'Ten bars', options: { globalSeriesType: 'column', columnMapping: { x: 'x', amount: 'y' } },
    })
    const { page, problems } = await open(`/queries/${created.id}#${chart.id}`)
    await expect.poll(() => bars(page, chart.id)).toBe(10)
    const plot = page.locator(`[data-chart-output="${chart.id}"] svg[data-zoom-domain]`)
    const box = (await plot.boundingBox())!
    const y = box.y + box.height / 2
    const drag = async () => {
      await page.mouse.move(box.x + box.width * 0.05, y)
      await page.mouse.down()
      await page.mouse.move(box.x + box.width * 0.3, y, { steps: 5 })
      await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 })
      await page.mouse.up()
    }
    await drag()
    await expect.poll(() => bars(page, chart.id)).toBeLessThan(7)
    expect(await bars(page, chart.id)).toBeGreaterThan(2)
    await page.getByRole('button', { name: 'Reset zoom' }).click()
    await expect.poll(() => bars(page, chart.id)).toBe(10)
    expect(await page.getByRole('button', { name: 'Reset zoom' }).count()).toBe(0)
    // a zoom belongs to the result it was made on: a new one shows whole
    await drag()
    await expect.poll(() => bars(page, chart.id)).toBeLessThan(7)
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await expect.poll(() => bars(page, chart.id)).toBe(10)
    expect(await page.getByRole('button', { name: 'Reset zoom' }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it("shows a mark's tooltip beside the pointer as it hovers", async () => {
    const { query, chart } = await queryWithResult('Amounts with tooltips', { chart: true })
    const { page, problems } = await open(`/queries/${query.id}#${chart!.id}`)
    await expect.poll(() => bars(page, chart!.id)).toBe(6)
    await page.locator(`[data-chart-output="${chart!.id}"] svg rect`).nth(2).hover()
    const tip = page.getByRole('tooltip')
    await tip.waitFor()
    expect(await tip.textContent()).toMatch(/item 3[\s\S]*30/)
    await page.mouse.move(5, 5)
    await expect.poll(() => tip.count()).toBe(0)
    expect(problems).toEqual([])
  })
})
