import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holdLock, type HeldLock } from '../helpers/held-lock.ts'
import { browserSuite, DESKTOP, jobEnd, settled, warehouseOptions } from './support.ts'

/**
 * A dashboard's chart widgets in a real browser, with a worker running their queries on a real PostgreSQL: drawn
 * by the server before any script (read in test/pages/dashboards.test.ts), hydrated when scrolled near, expanded, downloaded, refreshed (bounded to four
 * runs at a time, and shared between viewers within max_age), and failing with 'Error running query: …'.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
let warehouse: number
const boards: Record<'main' | 'twenty' | 'shared', string> = { main: '', twenty: '', shared: '' }
const ids = { numbers: 0, failing: 0, far: 0, shared: 0, twenty: [] as number[] }

type Query = { id: number; visualizations: { id: number }[] }
const newQuery = (name: string, query: string) => api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query })
async function ranQuery(name: string, query: string) {
  const q = await newQuery(name, query)
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  return q
}
async function newBoard(name: string, widgets: { visualization: number; col: number; row: number; sizeX: number; sizeY: number }[]) {
  const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
  for (const w of widgets) {
    await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: w.visualization, options: { position: { col: w.col, row: w.row, sizeX: w.sizeX, sizeY: w.sizeY } } })
  }
  await api('POST', `/api/dashboards/${board.id}`, { is_draft: false })
  return `/dashboards/${board.id}-${board.slug}`
}
const sql = () => suite.server.db.sql
const inFlight = async (queryIds: number[]) =>
  Number((await sql()<{ n: string }[]>`select count(*) as n from executions where query_id = any(${queryIds}) and status in (1, 2)`)[0].n)
const executionsOf = async (queryId: number) =>
  Number((await sql()<{ n: string }[]>`select count(*) as n from executions where query_id = ${queryId}`)[0].n)

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  await sql()`create table widget_numbers (label text, value int)`
  await sql()`insert into widget_numbers values ('Total', 100)`
  const numbers = await ranQuery('Numbers', 'select label, value from widget_numbers')
  const regions = await ranQuery('Regions', "select * from (values ('North', 120), ('South', 80)) as t(region, orders)")
  const bars = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: regions.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })
  const failing = await newQuery('Broken', 'select * from no_such_table_here')
  const far = await ranQuery('Far away', "select 'deep' as place, 1 as n")
  Object.assign(ids, { numbers: numbers.id, failing: failing.id, far: far.id })
  boards.main = await newBoard('Widgets at work', [
    { visualization: bars.id, col: 0, row: 0, sizeX: 4, sizeY: 8 },
    { visualization: numbers.visualizations[0].id, col: 4, row: 0, sizeX: 2, sizeY: 8 },
    { visualization: failing.visualizations[0].id, col: 0, row: 8, sizeX: 3, sizeY: 6 },
    // far below the fold: 60 rows of 50 px down
    { visualization: far.visualizations[0].id, col: 0, row: 60, sizeX: 3, sizeY: 6 },
  ])
}, 120_000)

/** A page of a dashboard, its visible widgets hydrated (the ones far below may not be). */
async function openBoard(path: string, o: { viewport?: { width: number; height: number } } = {}) {
  const opened = await suite.newPage({ viewport: o.viewport ?? DESKTOP })
  await opened.page.goto(suite.server.url + path)
  await opened.page.locator('sightline-island[data-name="DashboardWidget"][data-hydrated]').first().waitFor({ state: 'attached' })
  await settled(opened.page)
  return opened
}
const widget = (page: Page, queryName: string) => page.locator('article[data-widget-id]', { has: page.getByRole('heading', { name: queryName }) })
const hydratedCount = (page: Page) => page.locator('sightline-island[data-name="DashboardWidget"][data-hydrated]').count()
const refresh = (page: Page, maxAge: number) =>
  page.evaluate((age) => window.dispatchEvent(new CustomEvent('sightline:dashboard-refresh', { detail: { maxAge: age } })), maxAge)
async function menu(page: Page, card: ReturnType<typeof widget>, item: string) {
  await card.getByRole('button', { name: /^Actions for / }).click()
  return page.getByRole('menuitem', { name: item })
}

describe('before and while hydrating', () => {
  it('hydrates a widget far down only when it is scrolled near, its chart on the page all along', async () => {
    const { page, problems } = await openBoard(boards.main)
    const far = widget(page, 'Far away')
    const farIsland = page.locator('sightline-island', { has: far })
    expect(await far.getByText('deep', { exact: true }).count()).toBe(1)
    expect(await farIsland.getAttribute('data-hydrated')).toBeNull()
    const before = await hydratedCount(page)
    expect(before).toBe(3)
    await far.scrollIntoViewIfNeeded()
    await page.locator('sightline-island[data-hydrated]', { has: far }).waitFor({ state: 'attached' })
    expect(await hydratedCount(page)).toBe(before + 1)
    await far.getByRole('button', { name: /^Actions for / }).waitFor()
    expect(problems).toEqual([])
  })
})

describe('the widget menu', () => {
  it('expands the chart into a dialog 95% of the window wide, drawn again by the server at its size', async () => {
    const { page, problems } = await openBoard(boards.main)
    await (await menu(page, widget(page, 'Regions'), 'Expand')).click()
    const dialog = page.getByRole('dialog', { name: /Regions/ })
    await dialog.locator('[data-drawn-by="redrawn"] > svg').waitFor()
    const box = (await dialog.boundingBox())!
    expect(Math.abs(box.width - DESKTOP.width * 0.95)).toBeLessThan(2)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(problems).toEqual([])
  })

  it('downloads the shown result as CSV, and links TSV, Excel and the query', async () => {
    const { page } = await openBoard(boards.main)
    const card = widget(page, 'Numbers')
    const csv = await menu(page, card, 'Download as CSV File')
    expect(await page.getByRole('menuitem', { name: 'Download as TSV File' }).getAttribute('href')).toMatch(new RegExp(`^/api/queries/${ids.numbers}/results/\\d+\\.tsv$`))
    expect(await page.getByRole('menuitem', { name: 'Download as Excel File' }).getAttribute('href')).toMatch(/\.xlsx$/)
    expect(await page.getByRole('menuitem', { name: 'View Query' }).getAttribute('href')).toBe(`/queries/${ids.numbers}`)
    const [download] = await Promise.all([page.waitForEvent('download'), csv.click()])
    // read as a stream: the download is on the shared Chromium's side, at no path this process can open
    const chunks: Buffer[] = []
    for await (const chunk of (await download.createReadStream())) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    expect(text.trim().split(/\r?\n/)).toEqual(['label,value', 'Total,100'])
  })
})

describe('refreshing', () => {
  it('runs the queries again and shows the new value and time; a failing one says why', async () => {
    const { page, problems } = await openBoard(boards.main)
    const card = widget(page, 'Numbers')
    const updatedBefore = await card.locator('time').getAttribute('datetime')
    await sql()`update widget_numbers set value = 250`
    await refresh(page, 0)
    await card.getByText('250', { exact: true }).waitFor()
    expect(await card.getByText('100', { exact: true }).count()).toBe(0)
    await expect.poll(() => card.locator('time').getAttribute('datetime')).not.toBe(updatedBefore)
    await widget(page, 'Broken').getByText(/^Error running query: .*no_such_table_here/).waitFor()
    // the Refresh of its own menu runs it again
    await sql()`update widget_numbers set value = 300`
    await (await menu(page, card, 'Refresh')).click()
    await card.getByText('300', { exact: true }).waitFor()
    expect(problems).toEqual([])
  })

  describe('with queries that wait for the test', () => {
    let twentyLock: HeldLock
    let sharedLock: HeldLock
    beforeAll(async () => {
      ;[twentyLock, sharedLock] = [await holdLock(sql()), await holdLock(sql())]
      const widgets = []
      for (let n = 0; n < 20; n++) {
        const q = await newQuery(`Held ${n}`, twentyLock.query(`${n} as n`))
        ids.twenty.push(q.id)
        widgets.push({ visualization: q.visualizations[0].id, col: (n % 3) * 2, row: Math.floor(n / 3) * 4, sizeX: 2, sizeY: 4 })
      }
      boards.twenty = await newBoard('Twenty at once', widgets)
      const shared = await newQuery('Shared by viewers', sharedLock.query("'shared' as what"))
      ids.shared = shared.id
      boards.shared = await newBoard('Two viewers', [{ visualization: shared.visualizations[0].id, col: 0, row: 0, sizeX: 3, sizeY: 4 }])
    })
    afterAll(async () => {
      await twentyLock.release()
      await sharedLock.release()
    })

    it('runs at most four of a dashboard\'s twenty widgets at once', async () => {
      const { page } = await openBoard(boards.twenty, { viewport: { width: 1440, height: 2000 } })
      await expect.poll(() => hydratedCount(page)).toBe(20)
      const runs: string[] = []
      const polls = new Map<string, number>()
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname
        if (r.method() === 'POST' && /^\/api\/queries\/\d+\/results$/.test(path)) runs.push(path)
        if (path.startsWith('/api/jobs/')) polls.set(path, (polls.get(path) ?? 0) + 1)
      })
      await refresh(page, 0)
      // the four running are being polled, again and again: had a fifth been let in, it would have been asked by now
      await expect.poll(() => [...polls.values()].filter((n) => n >= 2).length).toBe(4)
      expect(runs).toHaveLength(4)
      expect(await inFlight(ids.twenty)).toBe(4)
      await twentyLock.release()
      let most = 0
      await expect.poll(async () => {
        most = Math.max(most, await inFlight(ids.twenty))
        return page.locator('article[aria-busy="true"]').count()
      }).toBe(0)
      expect(most).toBeLessThanOrEqual(4)
      expect(runs).toHaveLength(20)
      expect(await page.locator('article[data-widget-id] table').count()).toBe(20)
    })

    it('makes one execution for two viewers refreshing with max_age 60', async () => {
      const [one, two] = [await openBoard(boards.shared), await openBoard(boards.shared)]
      const jobOf = (page: Page) => page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/queries/${ids.shared}/results`))
        .then(async (r) => ((await r.json()) as { job: { id: string } }).job.id)
      // the query waits for the test's lock, so the first viewer's run is surely still running when the second asks
      const [first] = await Promise.all([jobOf(one.page), refresh(one.page, 60)])
      const [second] = await Promise.all([jobOf(two.page), refresh(two.page, 60)])
      expect(second).toBe(first)
      expect(await executionsOf(ids.shared)).toBe(1)
      await sharedLock.release()
      for (const { page } of [one, two]) await widget(page, 'Shared by viewers').getByText('shared', { exact: true }).waitFor()
      expect(await executionsOf(ids.shared)).toBe(1)
    })
  })
})
