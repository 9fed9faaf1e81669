import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addUser, browserSuite, DESKTOP, MEMBER, PHONE, signInOverHttp, waitForIslands, warehouseOptions, screenshot,
} from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * The query lists as people meet them in a real browser: search narrows the rows as you type and stays in the
 * address, sorting and pages load in place, stars toggle favorites (and come back when saving fails), and the
 * page works without script (checked on the server's HTML: test/pages/query-lists.test.ts). Screenshots at desktop
 * and phone widths land in test/browser/screenshots/.
 */
const suite = browserSuite()
const { open } = suite
const SHOTS = path.join(import.meta.dirname, 'screenshots')

const QUERIES: { name: string; tags?: string[]; schedule?: object; ranMinutesAgo?: number; draft?: boolean; byMember?: boolean }[] = [
  { name: 'Orders per hour', tags: ['sales'], schedule: { interval: 3600 }, ranMinutesAgo: 12 },
  { name: 'Revenue by region', tags: ['finance', 'sales'], schedule: { interval: 86400, time: '00:15' }, ranMinutesAgo: 130 },
  { name: 'Churned customers (last 90 days)', tags: ['customers'], ranMinutesAgo: 60 * 26, byMember: true },
  { name: 'Signup funnel', tags: ['growth', 'marketing'], draft: true, byMember: true },
  { name: 'Top products by margin', tags: ['finance'], schedule: { interval: 604800, time: '06:00', day_of_week: 'Monday' }, ranMinutesAgo: 60 * 24 * 3 },
  { name: 'Support tickets backlog', tags: ['support'], schedule: { interval: 900 }, ranMinutesAgo: 1 },
  { name: 'Weekly retention cohort', tags: ['growth'], ranMinutesAgo: 60 * 24 * 9, byMember: true },
  { name: 'Marketing spend vs. revenue', tags: ['marketing', 'finance'], draft: true },
  { name: 'Inventory below threshold', schedule: { interval: 1800 }, ranMinutesAgo: 25 },
  { name: 'Failed payments', tags: ['finance'], ranMinutesAgo: 60 * 5, byMember: true },
  { name: 'Daily active users', tags: ['growth'], schedule: { interval: 86400, time: '07:30' }, ranMinutesAgo: 60 * 8 },
  { name: 'NPS responses', tags: ['customers'], draft: true },
]

const apiCall = (jar: Map<string, string>, method: string, pathname: string, body?: unknown) =>
  suite.api<{ id: number } & Record<string, unknown>>(method, pathname, body, jar)

beforeAll(async () => {
  const { server, admin } = suite
  await addUser(server.db, MEMBER)
  const member = await signInOverHttp(server, MEMBER.email, MEMBER.password)
  const source = await apiCall(admin, 'POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(server) })
  const sql = server.db.sql
  const [org] = await sql<{ id: number }[]>`select id from organizations`
  for (const [i, spec] of QUERIES.entries()) {
    const jar = spec.byMember ? member : admin
    const query = await apiCall(jar, 'POST', '/api/queries', { data_source_id: source.id, name: spec.name, query: `select ${i}`, tags: spec.tags, schedule: spec.schedule })
    if (!spec.draft) await apiCall(jar, 'POST', `/api/queries/${query.id}`, { is_draft: false })
    // created an hour apart, the first one longest ago, so the default order (newest first) is the list reversed
    await sql`update queries set created_at = now() - ${`${(QUERIES.length - i) * 60} minutes`}::interval where id = ${query.id}`
    if (spec.ranMinutesAgo !== undefined) {
      const [result] = await sql<{ id: number }[]>`
        insert into query_results (org_id, data_source_id, query_hash, query_text, columns, row_count, runtime, retrieved_at)
        values (${org.id}, ${source.id}, ${`hash-${i}`}, 'stored', '[]', 0, 0.4, now() - ${`${spec.ranMinutesAgo} minutes`}::interval)
        returning id`
      await sql`update queries set latest_query_data_id = ${result.id} where id = ${query.id}`
    }
  }
  fs.mkdirSync(SHOTS, { recursive: true })
})
const rowNames = (page: Page) => page.locator('tbody tr td:nth-child(2) a').allTextContents()
/** Wait until the list has been loaded again and starts with this query. */
const firstRowIs = (page: Page, name: string) =>
  page.waitForFunction((expected) => document.querySelector('tbody tr td:nth-child(2) a')?.textContent === expected, name)
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search queries' })
/** Marks the document, so a test can tell an in-place update from a page load (which drops the mark). */
const mark = (page: Page) => page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true })
const stayed = (page: Page) => page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true)

describe('searching', () => {
  it('narrows the rows as you type, keeps q in the address, and a reload keeps it', async () => {
    const { page, problems } = await open('/queries')
    expect(await rowNames(page)).toEqual(QUERIES.map((q) => q.name).reverse())
    await mark(page)
    await searchBox(page).pressSequentially('revenue', { delay: 20 })
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2)
    expect((await rowNames(page)).sort()).toEqual(['Marketing spend vs. revenue', 'Revenue by region'])
    await page.waitForURL((url) => url.search === '?q=revenue')
    expect(await stayed(page)).toBe(true)
    expect(await page.getByRole('status').filter({ hasText: '2 queries' }).count()).toBe(1)

    await page.reload()
    await waitForIslands(page)
    expect(await searchBox(page).inputValue()).toBe('revenue')
    expect((await rowNames(page)).sort()).toEqual(['Marketing spend vs. revenue', 'Revenue by region'])

    await searchBox(page).fill('nothing-like-this')
    await page.getByText("Sorry, we couldn't find anything.").waitFor()
    expect(problems).toEqual([])
  })

  it('clears the sort while searching and brings it back when the search is cleared', async () => {
    const { page } = await open('/queries')
    await page.getByRole('link', { name: 'Sort by Name' }).click()
    await page.waitForURL((url) => url.search === '?order=name')
    await firstRowIs(page, 'Churned customers (last 90 days)')
    await searchBox(page).fill('orders')
    await page.waitForURL((url) => url.search === '?q=orders')
    await firstRowIs(page, 'Orders per hour')
    await searchBox(page).fill('')
    await page.waitForURL((url) => url.search === '?order=name')
    await firstRowIs(page, 'Churned customers (last 90 days)')
    expect(await page.locator('tbody tr').count()).toBe(12)
  })
})

describe('tags and pages', () => {
  it('filters by tags in place and pages through the list, the back button going back a page', async () => {
    const { page, problems } = await open('/queries')
    await mark(page)
    await page.getByRole('checkbox', { name: 'finance, 4 queries' }).click()
    await page.waitForURL((url) => url.search === '?tags=finance')
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 4)
    expect(await page.getByRole('checkbox', { name: 'finance, 4 queries' }).getAttribute('aria-checked')).toBe('true')
    await page.getByRole('checkbox', { name: 'finance, 4 queries' }).click()
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 12)

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: '5', exact: true }).click()
    await page.waitForURL((url) => url.search === '?page_size=5')
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5)
    const first = await rowNames(page)
    expect(first).toEqual(QUERIES.map((q) => q.name).reverse().slice(0, 5))
    await page.getByRole('link', { name: 'Next' }).click()
    await page.waitForURL((url) => url.search === '?page=2&page_size=5')
    await firstRowIs(page, QUERIES[QUERIES.length - 6].name)
    expect(await rowNames(page)).toEqual(QUERIES.map((q) => q.name).reverse().slice(5, 10))
    expect(await page.getByText('6–10 of 12').count()).toBe(1)
    await page.getByRole('link', { name: 'Page 3' }).click()
    await page.waitForURL((url) => url.search === '?page=3&page_size=5')
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2)

    await page.goBack()
    await page.waitForURL((url) => url.search === '?page=2&page_size=5')
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5)
    expect(await rowNames(page)).toEqual(QUERIES.map((q) => q.name).reverse().slice(5, 10))
    expect(await stayed(page)).toBe(true)
    expect(problems).toEqual([])
  })
})

describe('favorites', () => {
  it('stars a query, which /queries/favorites then lists, and un-stars it again', async () => {
    const { page, problems } = await open('/queries/favorites')
    await page.getByText('Mark queries as Favorite to list them here.').waitFor()
    await page.goto(suite.server.url + '/queries')
    await waitForIslands(page)
    const star = page.getByRole('button', { name: 'Favorite Revenue by region' })
    expect(await star.getAttribute('aria-pressed')).toBe('false')
    const saved = page.waitForResponse((res) => res.url().endsWith('/favorite') && res.request().method() === 'POST')
    await star.click()
    expect(await star.getAttribute('aria-pressed')).toBe('true')
    expect((await saved).status()).toBe(200)

    await page.getByRole('link', { name: 'Favorites', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/queries/favorites')
    await waitForIslands(page)
    expect(await rowNames(page)).toEqual(['Revenue by region'])
    const removed = page.waitForResponse((res) => res.url().endsWith('/favorite') && res.request().method() === 'DELETE')
    await page.getByRole('button', { name: 'Favorite Revenue by region' }).click()
    expect((await removed).status()).toBe(200)
    await page.reload()
    await page.getByText('Mark queries as Favorite to list them here.').waitFor()
    expect(problems).toEqual([])
  })

  it('puts the star back and says so when saving fails', async () => {
    const { page, problems } = await open('/queries')
    await page.route('**/api/queries/*/favorite', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server is down."}' }))
    const star = page.getByRole('button', { name: 'Favorite Signup funnel' })
    await star.click()
    await page.locator('[data-toast="error"]', { hasText: 'Could not change the favorite: Server is down.' }).waitFor()
    expect(await star.getAttribute('aria-pressed')).toBe('false')
    expect(problems.filter((p) => !/status of 500/.test(p))).toEqual([])
  })
})

describe('the look', () => {
  it.each([['desktop', DESKTOP], ['phone', PHONE]] as const)('fits the %s screen, light and dark, with no serious accessibility problems', async (name, viewport) => {
    for (const dark of [false, true]) {
      const opened = await open('/queries', { viewport, dark })
      const { page, problems } = opened
      await screenshot(page, { path: path.join(SHOTS, `query-list-${name}${dark ? '-dark' : ''}.png`), fullPage: true })
      expect(await layoutProblems(page, { scope: 'main *', skip: '[data-scroll-row]' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await suite.done(opened)
    }
    const [{ id }] = await suite.server.db.sql<{ id: number }[]>`select id from queries where name = 'Revenue by region'`
    await apiCall(suite.admin, 'POST', `/api/queries/${id}/favorite`) // starring twice is starring once
    for (const [shot, pathname] of [['filtered', '/queries?tags=finance&order=name'], ['empty', '/queries/archive']]) {
      const opened = await open(pathname, { viewport })
      const { page } = opened
      await screenshot(page, { path: path.join(SHOTS, `query-list-${shot}-${name}.png`), fullPage: true })
      expect(await layoutProblems(page, { scope: 'main *', skip: '[data-scroll-row]' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await suite.done(opened)
    }
  }, 300_000)

  it('fits a small laptop, where the secondary columns give way to a line under the name', async () => {
    const { page } = await open('/queries', { viewport: { width: 1024, height: 768 } })
    await screenshot(page, { path: path.join(SHOTS, 'query-list-laptop.png'), fullPage: true })
    expect(await layoutProblems(page, { scope: 'main *', skip: '[data-scroll-row]' })).toEqual([])
    expect(await page.getByRole('columnheader', { name: 'Sort by Created By' }).isVisible()).toBe(false)
    expect(await page.getByRole('columnheader', { name: 'Sort by Last Executed At' }).isVisible()).toBe(true)
  })
})
