import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  browserSuite, cookieHeader, DESKTOP, PHONE, settled, toastWith, waitForIslands, warehouseOptions, type PageOptions, screenshot,
} from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * The read-only query page in a real browser, with a worker running executions against a real PostgreSQL: results,
 * rename and publish, the schedule dialog, the API key dialog, archive, parameters in the address, the look.
 */
const suite = browserSuite({ role: 'all' }) // role 'all': the web process also runs a worker, so executions finish
const { call } = suite
let warehouse: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')

type Query = { id: number; name: string; version: number; is_draft: boolean; is_archived: boolean; api_key: string; schedule: unknown; tags: string[] }

const newQuery = async (body: Record<string, unknown>) =>
  (await call<Query>('POST', '/api/queries', { data_source_id: warehouse, ...body })).json

beforeAll(async () => {
  const created = await call<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  expect(created.status).toBe(200)
  warehouse = created.json.id
  fs.mkdirSync(SHOTS, { recursive: true })
}, 60_000)

/** The query page at `pathname`, in a browser that lets it use the clipboard. */
const open = (pathname: string, o: PageOptions = {}) =>
  suite.open(pathname, { ...o, prepare: (context) => context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url }) })

const cell = (page: Page, text: string) => page.locator('[data-results-grid] [role="cell"]', { hasText: text }).first()

describe('results', () => {
  it('runs with Refresh Now, and a reload shows the stored result without running again', async () => {
    const q = await newQuery({ name: 'Products', query: "select n, 'product ' || n as label from generate_series(1, 12) n" })
    const { page, problems } = await open(`/queries/${q.id}`)
    await page.getByText('This query has not been run yet.').waitFor()
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await cell(page, 'product 7').waitFor()
    expect(await page.locator('[data-row-count]').textContent()).toBe('12 rows')
    await toastWith(page, 'Products updated.').waitFor()

    const posts: string[] = []
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()))
    await page.reload()
    await cell(page, 'product 12').waitFor()
    await settled(page) // a run would have been asked for by now
    expect(posts).toEqual([])
    expect(problems).toEqual([])
  })

  it('keeps applied parameter values in the address, and a reload runs with them', async () => {
    const q = await newQuery({
      name: 'Squares', query: 'select {{ n }}::int * {{ n }}::int as square',
      options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 3 }] },
    })
    const { page, problems } = await open(`/queries/${q.id}`)
    // a query with parameters loads its result on opening
    await cell(page, '9').waitFor()
    // the run made on opening is not announced; one the user asks for is
    await settled(page)
    expect(await toastWith(page, 'Squares updated.').count()).toBe(0)
    const input = page.locator('[data-parameter="n"] input')
    await input.fill('7')
    await page.getByRole('button', { name: /Apply Changes/ }).click()
    await cell(page, '49').waitFor()
    await toastWith(page, 'Squares updated.').waitFor()
    expect(new URL(page.url()).searchParams.get('p_n')).toBe('7')
    await page.reload()
    await waitForIslands(page)
    await cell(page, '49').waitFor()
    expect(await page.locator('[data-parameter="n"] input').inputValue()).toBe('7')
    expect(problems).toEqual([])
  })
})

describe('visualization tabs', () => {
  it('draws a counter tab from the same result as the table', async () => {
    const q = await newQuery({ name: 'Total', query: 'select 1234 as total' })
    await suite.server.db.sql`insert into visualizations (query_id, type, name, description, options)
      values (${q.id}, 'COUNTER', 'Big number', '', ${suite.server.db.sql.json({ counterColName: 'total' })})`
    const { page, problems } = await open(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await cell(page, '1,234').waitFor()
    await page.getByRole('tab', { name: 'Big number' }).click()
    await page.locator('[data-visualization="COUNTER"]', { hasText: '1,234' }).waitFor()
    await screenshot(page, { path: path.join(SHOTS, 'query-page-counter.png') })
    expect(problems).toEqual([])
  })
})

describe('the header', () => {
  it('publishes and unpublishes, and renaming a draft saves and publishes it', async () => {
    const q = await newQuery({ name: 'New Query', query: 'select 1' })
    const { page, problems } = await open(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Query published').waitFor()
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.is_draft).toBe(false)
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0)

    const more = page.getByRole('button', { name: 'More actions' })
    await more.click()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem')
    await page.keyboard.press('Escape') // closes the menu and gives focus back to its button
    expect(await page.getByRole('menu').count()).toBe(0)
    expect(await more.evaluate((button) => button === document.activeElement)).toBe(true)
    await more.click()
    await page.getByRole('menuitem', { name: 'Unpublish' }).click()
    await page.locator('[data-draft]').waitFor()
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.is_draft).toBe(true)

    const name = page.getByRole('textbox', { name: 'Query name' })
    await name.fill('Weekly revenue')
    await name.press('Enter')
    await page.getByText('Query saved and published').waitFor()
    const saved = (await call<Query>('GET', `/api/queries/${q.id}`)).json
    expect(saved).toMatchObject({ name: 'Weekly revenue', is_draft: false })
    expect(problems).toEqual([])
  })

  it('a rename after someone else’s save shows Changes not saved, and Overwrite Query saves it anyway', async () => {
    const q = await newQuery({ name: 'Contested', query: 'select 1' })
    const { page, problems } = await open(`/queries/${q.id}`)
    expect((await call('POST', `/api/queries/${q.id}`, { description: 'changed elsewhere', version: q.version })).status).toBe(200)
    const name = page.getByRole('textbox', { name: 'Query name' })
    await name.fill('Contested, mine')
    await name.press('Enter')
    const dialog = page.getByRole('alertdialog', { name: 'Changes not saved' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('It seems like the query has been modified by another user. Please copy/backup your changes and reload this page.')
    await dialog.getByRole('button', { name: 'Overwrite Query' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.name).toBe('Contested, mine')
    // the browser logs the refused save; nothing else went wrong
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([])
  })

  it('edits tags: trimmed, without duplicates or blanks', async () => {
    const q = await newQuery({ name: 'Tagged', query: 'select 1' })
    const { page } = await open(`/queries/${q.id}`)
    await page.getByRole('button', { name: '+ Add tags' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add/Edit Tags' })
    await dialog.getByLabel('Tags').fill(' finance , ops,, finance ')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('[data-tag]', { hasText: 'ops' }).waitFor()
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.tags).toEqual(['finance', 'ops'])
  })

  it('sets a daily schedule at 00:15 UTC, which the API and the list show', async () => {
    const q = await newQuery({ name: 'Scheduled report', query: 'select 1' })
    const { page, problems } = await open(`/queries/${q.id}`)
    await page.locator('[data-schedule]', { hasText: 'Never' }).click()
    const dialog = page.getByRole('dialog', { name: 'Refresh Schedule' })
    await dialog.getByLabel('Refresh every').selectOption('86400')
    expect(await dialog.getByLabel('At (UTC)').inputValue()).toBe('00:15')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('[data-schedule]', { hasText: 'Every day at 00:15' }).waitFor()
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.schedule).toEqual({ interval: 86400, time: '00:15', day_of_week: null, until: null })
    const list = await (await fetch(`${suite.server.url}/queries`, { headers: { cookie: cookieHeader(suite.admin) } })).text()
    expect(list).toContain('Every day at 00:15')

    // back to Never: the schedule is cleared
    await page.locator('[data-schedule]').click()
    await dialog.getByLabel('Refresh every').selectOption('')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.locator('[data-schedule]', { hasText: 'Never' }).waitFor()
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.schedule).toBeNull()
    expect(problems).toEqual([])
  })

  it('shows the API key, and Copy puts it on the clipboard', async () => {
    const q = await newQuery({ name: 'Keyed', query: 'select 1' })
    const { page, problems } = await open(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Show API Key' }).click()
    const dialog = page.getByRole('dialog', { name: 'API Key' })
    await dialog.locator('[data-api-key]', { hasNotText: 'Loading' }).waitFor()
    await page.waitForFunction((key) => (document.querySelector('[data-api-key]') as HTMLInputElement).value === key, q.api_key)
    await dialog.getByRole('button', { name: 'Copy' }).click()
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(q.api_key)
    expect(problems).toEqual([])
  })

  it('archives after a confirmation and goes back to the list', async () => {
    const q = await newQuery({ name: 'To archive', query: 'select 1' })
    const { page, problems } = await open(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Archive' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Archive Query' })
    await confirm.getByRole('button', { name: 'Archive' }).click()
    await page.waitForURL(`${suite.server.url}/queries`)
    expect((await call<Query>('GET', `/api/queries/${q.id}`)).json.is_archived).toBe(true)
    expect(problems).toEqual([])
  })
})

describe('the look', () => {
  for (const [label, viewport, dark] of [['desktop', DESKTOP, false], ['phone', PHONE, false], ['desktop-dark', DESKTOP, true]] as const) {
    it(`at ${label} width the header, parameters and results fit`, async () => {
      const q = await newQuery({
        name: 'Revenue by region', tags: ['finance', 'weekly'],
        description: 'Weekly revenue per region, for the Monday review.',
        query: "select n as week, 'Region ' || (n % 4) as region, n * 1234.5 as revenue from generate_series(1, {{ weeks }}) n",
        options: { parameters: [{ name: 'weeks', title: 'Weeks', type: 'number', value: 30 }] },
      })
      await call('POST', `/api/queries/${q.id}`, { schedule: { interval: 86400, time: '00:15' }, version: q.version })
      const { page, problems } = await open(`/queries/${q.id}`, { viewport, dark })
      await page.locator('[data-row-count]', { hasText: '30 rows' }).waitFor()
      expect(await layoutProblems(page, { scope: '[data-query-page] *', skip: '[data-results-grid]' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await screenshot(page, { path: path.join(SHOTS, `query-page-${label}.png`), fullPage: label === 'phone' })
      expect(problems).toEqual([])
    })
  }

  it('Alt+F shows the results full screen', async () => {
    const q = await newQuery({ name: 'Full', query: 'select 1 as one' })
    const { page } = await open(`/queries/${q.id}`)
    await page.keyboard.press('Alt+f')
    await page.locator('[data-results-area][data-fullscreen]').waitFor()
    await page.keyboard.press('Escape')
    await page.locator('[data-results-area][data-fullscreen]').waitFor({ state: 'detached' })
  })
})
