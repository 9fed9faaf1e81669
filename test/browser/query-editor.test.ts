import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addUser, browserSuite, DESKTOP, MEMBER, PHONE, signInOverHttp, warehouseOptions, type PageOptions, screenshot,
} from './support.ts'
import { openEditor, typeQuery } from './editor.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * The query editor in a real browser, with a worker running executions against a real PostgreSQL: write, run and
 * save a new query; cancel a slow one; a save conflict and Overwrite; a 100,000-row result; the look at two widths.
 */
const suite = browserSuite({ role: 'all' }) // role 'all': the web process also runs a worker, so executions finish
const { call } = suite
let member: Map<string, string>
let warehouse: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')

beforeAll(async () => {
  const created = await call<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  expect(created.status).toBe(200)
  warehouse = created.json.id
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  fs.mkdirSync(SHOTS, { recursive: true })
}, 60_000)

/** The editor at `pathname`, on the Warehouse source. */
const open = (pathname: string, o: PageOptions = {}) => openEditor(suite, pathname, { ...o, source: warehouse })

const gridCell = (page: Page, text: string) => page.locator('[data-results-grid] [role="cell"]', { hasText: text }).first()
/** Console noise a refused call leaves on purpose (the browser logs every 4xx response). */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of 409/.test(p))

describe('writing a new query', () => {
  it('runs with Ctrl+Enter, shows the rows, and Ctrl+S saves it and moves the address to its source page', async () => {
    const { page, problems } = await open('/queries/new')
    expect(await page.getByLabel('Data source').inputValue()).toBe(String(warehouse))
    await typeQuery(page, "select n, 'item ' || n as label, n * 1.5 as price from generate_series(1, 25) n")
    await page.keyboard.press('Control+Enter')
    await gridCell(page, 'item 3').waitFor()
    expect(await page.locator('[data-row-count]').textContent()).toBe('25 rows')
    expect(await page.getByRole('button', { name: /^Save/ }).textContent()).toContain('*')

    await page.keyboard.press('Control+s')
    await page.waitForURL(/\/queries\/\d+\/source$/)
    const id = Number(/\/queries\/(\d+)\/source/.exec(page.url())![1])
    await page.getByRole('button', { name: /^Save/ }).filter({ hasNotText: '*' }).waitFor()
    const saved = await call<{ name: string; query: string; data_source_id: number }>('GET', `/api/queries/${id}`)
    expect(saved.json).toMatchObject({ name: 'New Query', data_source_id: warehouse })
    expect(saved.json.query).toContain('generate_series(1, 25)')
    expect(unexpected(problems)).toEqual([])
  })

  it('cancels a slow query: Cancelling…, then the cancellation as the error', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select pg_sleep(60)') // runs until cancelled, however busy the machine
    await page.getByRole('button', { name: 'Execute' }).click()
    await page.getByRole('status').filter({ hasText: /Executing query…|Query in queue…/ }).waitFor()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByText('Cancelling…').waitFor()
    const alert = page.getByRole('alert').filter({ hasText: 'Error running query:' })
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/cancel/i)
  })
})

describe('the toolbar and schema', () => {
  it('formats with Ctrl+Shift+F, adds a parameter with Ctrl+P, inserts a column from the schema, completes names, executes a selection', async () => {
    const { page, problems } = await open('/queries/new')
    await typeQuery(page, 'select n,2 as two from generate_series(1,3) n where n>1')
    await page.keyboard.press('Control+Shift+F')
    // a string in hasText ignores case; a regular expression does not
    await page.locator('.cm-content', { hasText: /SELECT/ }).waitFor()
    expect(await page.locator('.cm-content').innerText()).toMatch(/^SELECT\n\s+n,\n\s+2 AS two\nFROM\n/)

    await page.keyboard.press('Control+p')
    const dialog = page.getByRole('dialog', { name: 'Add Parameter' })
    await dialog.getByLabel('Keyword').fill('low')
    await dialog.getByRole('button', { name: 'Add' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('.cm-content', { hasText: '{{ low }}' }).waitFor()
    await page.locator('[data-parameter="low"]').waitFor()

    // a filter matching a column shows its table opened at the matching columns
    await page.getByPlaceholder('Filter tables & columns...').fill('trigger')
    await page.getByRole('button', { name: 'query_snippets', exact: true }).waitFor()
    await page.getByTitle('Insert trigger').click()
    await page.locator('.cm-content', { hasText: '{{ low }}trigger' }).waitFor()
    // a refresh runs as a job polled until done; the tables stay listed meanwhile
    const refresh = page.getByRole('button', { name: 'Refresh schema' })
    await refresh.click()
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('button[aria-label="Refresh schema"]')?.disabled)
    await page.getByRole('button', { name: 'query_snippets', exact: true }).waitFor()
    expect(await page.locator('[data-toast]', { hasText: 'Schema refresh failed' }).count()).toBe(0)

    // completion offers the schema's tables as you type; with text selected, Execute runs only the selection
    await typeQuery(page, 'select * from query_sn')
    await page.locator('.cm-tooltip-autocomplete', { hasText: 'query_snippets' }).waitFor()
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+A')
    await page.getByRole('button', { name: 'Execute Selected' }).waitFor()
    expect(unexpected(problems)).toEqual([])
  })
})

describe('leaving and reading', () => {
  it('asks before leaving with unsaved changes, and not once they are saved', async () => {
    const { page } = await open('/queries/new')
    // a real beforeunload prompt takes the browser down with it in headless runs, so the test sends the event itself
    const wouldAsk = () => page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))
    expect(await wouldAsk()).toBe(false)
    await typeQuery(page, 'select 1')
    // the editor reports its text after 100 ms of quiet; from then on there is something to lose
    await page.locator('[data-query-editor][data-unsaved]').waitFor()
    expect(await wouldAsk()).toBe(true)
    await page.keyboard.press('Control+s')
    await page.waitForURL(/\/queries\/\d+\/source$/)
    await page.locator('[data-query-editor]:not([data-unsaved])').waitFor()
    expect(await wouldAsk()).toBe(false)
  })

  it('shows a colleague’s query read-only: no Save, the text cannot change, and it still runs', async () => {
    const { json } = await call<{ id: number }>('POST', '/api/queries', { name: 'Ada’s numbers', query: 'select 42 as answer', data_source_id: warehouse })
    const { page, problems } = await open(`/queries/${json.id}/source`, { as: member })
    await page.getByText('You can view this query but not change it.').waitFor()
    expect(await page.getByRole('button', { name: /^Save/ }).count()).toBe(0)
    expect(await page.getByLabel('Data source').isDisabled()).toBe(true)
    await page.locator('.cm-content').click()
    await page.keyboard.type('xyz')
    expect(await page.locator('.cm-content').innerText()).toBe('select 42 as answer')
    await page.keyboard.press('Control+Enter')
    await gridCell(page, '42').waitFor()
    expect(unexpected(problems)).toEqual([])
  })
})

describe('the log', () => {
  it('shows a Log tab with the engine’s notices when the result has any', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, "do $$ begin raise notice 'warming up'; end $$; select 1 as one")
    await page.keyboard.press('Control+Enter')
    await page.locator('[data-row-count]', { hasText: '1 row' }).waitFor()
    await page.getByRole('tab', { name: 'Log' }).click()
    await page.getByRole('tabpanel').getByText('warming up').waitFor()
  })
})

describe('saving over someone else’s change', () => {
  it('shows Changes not saved, and Overwrite Query saves this version anyway', async () => {
    const created = await call<{ id: number; version: number }>('POST', '/api/queries', { name: 'Shared report', query: 'select 1 as one', data_source_id: warehouse })
    const { id } = created.json
    const { page, problems } = await open(`/queries/${id}/source`)
    // a colleague saves first
    expect((await call('POST', `/api/queries/${id}`, { query: 'select 2 as two', version: created.json.version })).status).toBe(200)
    await typeQuery(page, 'select 3 as three')
    await page.keyboard.press('Control+s')
    const dialog = page.getByRole('alertdialog', { name: 'Changes not saved' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('It seems like the query has been modified by another user. Please copy/backup your changes and reload this page.')
    await dialog.getByRole('button', { name: 'Overwrite Query' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect((await call<{ query: string }>('GET', `/api/queries/${id}`)).json.query).toBe('select 3 as three')
    expect(unexpected(problems)).toEqual([])
  })
})

describe('a large result', () => {
  it('renders 100,000 rows, only those in view, and scrolls to the last one', async () => {
    const { page } = await open('/queries/new')
    await page.getByLabel('LIMIT 1000').uncheck()
    await typeQuery(page, "select n, md5(n::text) as hash, timestamp '2024-01-01' + n * interval '1 minute' as at from generate_series(1, 100000) n")
    await page.keyboard.press('Control+Enter')
    await page.locator('[data-row-count]', { hasText: '100,000 rows' }).waitFor()
    await page.waitForFunction(() => performance.getEntriesByName('sightline:result-rendered').length > 0)
    // only the rows in view are in the page (how fast they are painted is measured by bench/editor-page.ts)
    expect(await page.locator('[data-results-grid] [role="row"]').count()).toBeLessThan(80)
    await page.locator('[data-results-grid]').evaluate((el) => (el.scrollTop = el.scrollHeight))
    await gridCell(page, '100,000').waitFor()
    // sorting by a header puts the largest first
    await page.getByRole('button', { name: 'Sort by n' }).click()
    await page.getByRole('button', { name: 'Sort by n' }).click()
    await page.locator('[data-results-grid]').evaluate((el) => (el.scrollTop = 0))
    expect(await page.locator('[data-results-grid] [role="row"][aria-rowindex="2"] [role="cell"]').first().textContent()).toBe('100,000')
    // a new result shows in its own order, not sorted the way the last one was
    await page.keyboard.press('Control+Enter')
    await page.locator('[data-results-grid] [role="row"][aria-rowindex="2"] [role="cell"]').first().filter({ hasText: /^1$/ }).waitFor()
    expect(await page.locator('[role="columnheader"][aria-sort="descending"]').count()).toBe(0)
  }, 120_000)
})

describe('the look', () => {
  for (const [label, viewport, dark] of [['desktop', DESKTOP, false], ['phone', PHONE, false], ['desktop-dark', DESKTOP, true]] as const) {
    it(`at ${label} width the editor, schema and results fit`, async () => {
      const { page, problems } = await open('/queries/new', { viewport, dark })
      await page.getByRole('textbox', { name: 'Query name' }).fill('Orders by week')
      await typeQuery(page, "select n as week, 'Region ' || (n % 4) as region, n * 1234.5 as revenue, null as note\nfrom generate_series(1, 40) n\nwhere n > {{ min_week }}")
      // applying a parameter value (Ctrl+Enter in its input) runs the query with it
      const minWeek = page.locator('[data-parameter="min_week"] input')
      await minWeek.fill('0')
      await minWeek.press('Control+Enter')
      await page.locator('[data-row-count]', { hasText: '40 rows' }).waitFor()
      expect(await layoutProblems(page, { scope: '[data-query-editor] *', skip: '[data-results-grid], .cm-editor' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await screenshot(page, { path: path.join(SHOTS, `query-editor-${label}.png`), fullPage: label === 'phone' })
      expect(unexpected(problems)).toEqual([])
    })
  }
})
