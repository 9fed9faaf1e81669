import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import { browserSuite, DESKTOP, PHONE, settled, warehouseOptions, screenshot } from './support.ts'

/**
 * The admin monitoring pages as a super admin meets them in Chromium: each is drawn with its figures on the server,
 * reads them again every 60 s of the page's own clock without reloading, says so when that fails, and RQ Status
 * keeps its tab in the address's hash. The server runs no worker, so queued jobs stay queued; the worker the pages
 * list is one on another machine, known by its heartbeat.
 */
const suite = browserSuite()
const { open } = suite
const HOST = 'worker-host-7'
const SHOTS = path.join(import.meta.dirname, 'screenshots')

let dsId: number
let queuedQueryId: number

const sql = () => suite.server.db.sql

/** A saved query, run once: with no worker anywhere its execution waits in its source's queue. */
async function queueRun(name: string): Promise<number> {
  const q = await suite.api<{ id: number }>('POST', '/api/queries', { data_source_id: dsId, name, query: `select '${name}' as waiting` })
  await suite.api('POST', `/api/queries/${q.id}/results`, {})
  return q.id
}

/** A scheduled query whose refresh is overdue. */
async function outdatedQuery(name: string, tags: string[] = []): Promise<number> {
  const q = await suite.api<{ id: number }>('POST', '/api/queries', {
    data_source_id: dsId, name, query: `select '${name}'`, tags, schedule: { interval: 3600, time: null, day_of_week: null, until: null },
  })
  await sql()`update queries set schedule_next_at = now() - interval '1 hour' where id = ${q.id}`
  return q.id
}

const addOtherJob = (task: string) => sql()`select graphile_worker.add_job(${task}::text, '{}'::json)`

/** A page whose clock the test moves: installed before the page's scripts run, so the refresh timer is on it. */
async function openWithClock(pathname: string) {
  const opened = await open(pathname, { prepare: (context) => context.clock.install() })
  // a mark on the window: still there afterwards means the page was never reloaded
  await opened.page.evaluate(() => Object.assign(window, { notReloaded: true }))
  return opened
}

const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true)
const minute = (page: Page) => page.clock.runFor(60_000)

beforeAll(async () => {
  const { server } = suite
  dsId = (await suite.api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(server) })).id
  await sql()`insert into worker_heartbeats (worker_id, hostname, pid, concurrency) values ('pool-on-7', ${HOST}, 4242, 4)`
  queuedQueryId = await queueRun('Orders waiting')
  await addOtherJob('cleanup_results')
  await outdatedQuery('Stale revenue', ['kpi'])
})

describe('System Status', () => {
  it('shows the figures of a minute later without reloading', async () => {
    const { page, problems } = await openWithClock('/admin/status')
    const queues = page.getByRole('region', { name: 'Queues' })
    const size = queues.getByRole('term').filter({ hasText: `ds:${dsId}` }).locator('xpath=following-sibling::dd')
    const before = Number(await size.textContent())

    await queueRun('Orders waiting too')
    await minute(page)
    await page.waitForFunction(([queue, n]) => [...document.querySelectorAll('[aria-labelledby="status-queues"] dt')]
      .some((dt) => dt.textContent === queue && Number(dt.nextElementSibling?.textContent) === n), [`ds:${dsId}`, before + 1] as const)
    expect(await stillSamePage(page)).toBe(true)
    expect(problems).toEqual([])
  })

  it("says 'Failed loading status. Please refresh.' when a refresh fails, keeping the figures", async () => {
    const { page, problems } = await openWithClock('/admin/status')
    await page.route('**/status.json', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }))
    await minute(page)
    await page.getByRole('alert').filter({ hasText: 'Failed loading status. Please refresh.' }).waitFor()
    expect(await page.getByRole('heading', { name: 'General' }).isVisible()).toBe(true)
    await page.unroute('**/status.json')
    await minute(page)
    await page.getByRole('alert').filter({ hasText: 'Failed loading status.' }).waitFor({ state: 'detached' })
    expect(problems.filter((p) => !/status of 500/.test(p))).toEqual([])
  })
})

describe('RQ Status', () => {
  const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true })

  it('counts started and queued jobs and lists them by tab, the tab kept in the hash across a reload', async () => {
    const { page, problems } = await openWithClock('/admin/queries/jobs')
    const rq = await suite.api<{ queues: Record<string, { queued: number; started: unknown[] }> }>('GET', '/api/admin/queries/rq_status')
    const queued = Object.values(rq.queues).reduce((n, q) => n + q.queued, 0)
    expect(await page.getByText('Queued Jobs').locator('xpath=..').getByRole('definition').textContent()).toBe(String(queued))
    expect(await page.getByText('Started Jobs').locator('xpath=..').getByRole('definition').textContent()).toBe('0')
    expect(await tab(page, 'Queues').getAttribute('aria-selected')).toBe('true')
    expect(await page.locator(`tr[data-queue="ds:${dsId}"]`).count()).toBe(1)

    await tab(page, 'Queries').click()
    await page.waitForURL(/#queries$/)
    const run = page.getByRole('tabpanel').getByRole('link', { name: String(queuedQueryId), exact: true })
    expect(await run.getAttribute('href')).toBe(`/queries/${queuedQueryId}`)

    await tab(page, 'Workers').click()
    await page.waitForURL(/#workers$/)
    await page.getByRole('cell', { name: HOST }).waitFor()
    await page.reload()
    await page.waitForFunction(() => document.querySelector('sightline-island[data-name="RqStatus"]')?.hasAttribute('data-hydrated'))
    expect(await tab(page, 'Workers').getAttribute('aria-selected')).toBe('true')
    await page.getByRole('cell', { name: HOST }).waitFor()

    await tab(page, 'Other Jobs').click()
    await page.getByRole('cell', { name: 'cleanup_results' }).waitFor()
    expect(problems).toEqual([])
  })

  it('shows a job queued after the page opened a minute later, and the failure text when the call fails', async () => {
    const { page, problems } = await openWithClock('/admin/queries/jobs#otherJobs')
    await page.getByRole('cell', { name: 'cleanup_results' }).waitFor()
    await addOtherJob('cleanup_sessions')
    await settled(page)
    expect(await page.getByRole('cell', { name: 'cleanup_sessions' }).count()).toBe(0)
    await minute(page)
    await page.getByRole('cell', { name: 'cleanup_sessions' }).waitFor()
    expect(await stillSamePage(page)).toBe(true)

    await page.route('**/api/admin/queries/rq_status', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }))
    await minute(page)
    await page.getByRole('alert').filter({ hasText: 'Failed loading status. Please refresh.' }).waitFor()
    expect(problems.filter((p) => !/status of 500/.test(p))).toEqual([])
  })

})

describe('Outdated Queries', () => {
  it('lists overdue queries with their labels, refreshes each minute while Auto update is on, and stops when it is off', async () => {
    const { page, problems } = await openWithClock('/admin/queries/outdated')
    const auto = page.getByRole('switch', { name: 'Auto update' })
    expect(await auto.getAttribute('aria-checked')).toBe('true')
    expect(await page.getByText('Last updated').textContent()).toMatch(/^Last updated: .*\d{2}:\d{2}/)
    const row = page.locator('tr', { hasText: 'Stale revenue' })
    expect(await row.getByRole('link', { name: 'Stale revenue' }).getAttribute('href')).toMatch(/^\/queries\/\d+$/)
    expect(await row.textContent()).toContain('kpi')
    expect(await row.textContent()).toContain('Unpublished')
    expect(await row.textContent()).toContain('Every 1 hour')

    await outdatedQuery('Stale churn')
    await minute(page)
    await page.locator('tr', { hasText: 'Stale churn' }).waitFor()
    expect(await stillSamePage(page)).toBe(true)

    // sorted in the browser, the order kept in the address
    await page.getByRole('link', { name: 'Sort by Name' }).click()
    await page.waitForURL(/order=name/)
    expect(await page.locator('tbody tr a[href^="/queries/"]').allTextContents()).toEqual(['Stale churn', 'Stale revenue'])

    let reads = 0
    page.on('request', (r) => r.url().includes('/api/admin/queries/outdated') && reads++)
    await auto.click()
    expect(await auto.getAttribute('aria-checked')).toBe('false')
    await outdatedQuery('Stale signups')
    await minute(page)
    await minute(page)
    await settled(page)
    expect(reads).toBe(0)
    expect(await page.locator('tr', { hasText: 'Stale signups' }).count()).toBe(0)
    // switched on again, it reads at once
    await auto.click()
    await page.locator('tr', { hasText: 'Stale signups' }).waitFor()
    expect(problems).toEqual([])
  })
})

describe('screens', () => {
  it.each([['desktop', DESKTOP], ['phone', PHONE]] as const)('each page fits the %s screen and passes an accessibility check', async (name, viewport) => {
    for (const [pathname, shot] of [['/admin/status', 'status'], ['/admin/queries/jobs#queries', 'jobs'], ['/admin/queries/outdated', 'outdated']]) {
      const { page, problems } = await open(pathname, { viewport })
      await screenshot(page, { path: path.join(SHOTS, `monitoring-${shot}-${name}.png`), fullPage: true })
      const found = [...await layoutProblems(page, { scope: 'main *', skip: 'nav[aria-label="Admin"], [role="tablist"], [data-scroll-table]' }), ...await seriousA11yViolations(page)]
      expect([pathname, found, problems]).toEqual([pathname, [], []])
    }
  })
})
