import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, settled, toastWith, warehouseOptions, type PageOptions } from './support.ts'
import { openEditor, typeQuery } from './editor.ts'

/**
 * Running queries as an analyst does all day, in the editor and on the query page: the messages a refused or
 * failed run gives (once, with parameter titles, without Sightline's own annotation), what the result area shows
 * after a failure, pending parameter values, and what a run's toast says.
 */
const suite = browserSuite({ role: 'all' }) // role 'all': the web process also runs a worker, so executions finish
const { call } = suite
let warehouse: number
let duck: number

beforeAll(async () => {
  const created = await call<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  expect(created.status).toBe(200)
  warehouse = created.json.id
  const duckdb = await call<{ id: number }>('POST', '/api/data_sources', { name: 'Ducks', type: 'duckdb', options: { dbpath: ':memory:' } })
  expect(duckdb.status).toBe(200)
  duck = duckdb.json.id
}, 60_000)

const open = (pathname: string, o: PageOptions & { source?: number } = {}) => openEditor(suite, pathname, { ...o, source: o.source ?? warehouse })
const gridCell = (page: Page, text: string) => page.locator('[data-results-grid] [role="cell"]', { hasText: text }).first()
const failure = (page: Page) => page.getByRole('alert').filter({ hasText: 'Error running query:' })
/** The browser logs every refused call (4xx) on its console; that noise is expected here. */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of 400/.test(p))

describe('refused runs', () => {
  it('names missing parameters by their titles in the editor, as the query page does', async () => {
    const { page, problems } = await open('/queries/new')
    await typeQuery(page, 'select {{ min_week }} as a, {{ max_week }} as b')
    await page.locator('[data-parameter="max_week"]').waitFor()
    await page.keyboard.press('Control+Enter')
    expect(await failure(page).textContent()).toContain('missing values for Min week, Max week parameters.')

    const q = (await call<{ id: number }>('POST', '/api/queries', {
      name: 'Weeks', data_source_id: warehouse, query: 'select {{ min_week }} as a',
      options: { parameters: [{ name: 'min_week', title: 'First week', type: 'number', value: null }] },
    })).json
    const view = await suite.open(`/queries/${q.id}`)
    await view.page.getByRole('button', { name: 'Refresh Now' }).click()
    expect(await failure(view.page).textContent()).toContain('missing value for First week parameter.')
    expect(unexpected(problems)).toEqual([])
  })

  it("says Can't execute empty query. when asked to run nothing", async () => {
    const { page } = await open('/queries/new')
    await page.locator('.cm-content').focus()
    await page.keyboard.press('Control+Enter')
    expect(await failure(page).textContent()).toContain("Can't execute empty query.")
  })
})

describe('a failed run', () => {
  it('raises one message, not copies of it, however often it is repeated', async () => {
    const { page, problems } = await open('/queries/new')
    await typeQuery(page, 'select no_such_column')
    for (let i = 0; i < 3; i++) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/query_results') && r.request().method() === 'POST')
      await page.keyboard.press('Control+Enter')
      await answered
      await failure(page).waitFor()
      await settled(page)
    }
    expect(await toastWith(page, 'failed to run').count()).toBe(1)
    expect(unexpected(problems)).toEqual([])
  })

  it('replaces the last result with its error, and the last result is one click away', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select 41 + 1 as answer')
    await page.keyboard.press('Control+Enter')
    await gridCell(page, '42').waitFor()
    await typeQuery(page, 'select no_such_column')
    await page.keyboard.press('Control+Enter')
    await failure(page).waitFor()
    await page.locator('[data-results-grid]').waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Show the last result' }).click()
    await gridCell(page, '42').waitFor()
    // the next good run shows its own result again
    await typeQuery(page, 'select 7 as seven')
    await page.keyboard.press('Control+Enter')
    await gridCell(page, '7').waitFor()
    expect(await failure(page).count()).toBe(0)
  })

  it('on the query page too', async () => {
    const q = (await call<{ id: number; version: number }>('POST', '/api/queries', { name: 'Flaky', data_source_id: warehouse, query: 'select 42 as answer' })).json
    const { page } = await suite.open(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await gridCell(page, '42').waitFor()
    await call('POST', `/api/queries/${q.id}`, { query: 'select no_such_column', version: q.version })
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await failure(page).waitFor()
    await page.locator('[data-results-grid]').waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Show the last result' }).click()
    await gridCell(page, '42').waitFor()
  })

  it("shows the engine's message about the user's text, without Sightline's annotation", async () => {
    const { page } = await open('/queries/new', { source: duck })
    await typeQuery(page, 'select nope from range(3)')
    await page.keyboard.press('Control+Enter')
    const text = (await failure(page).textContent()) ?? ''
    expect(text).not.toMatch(/Query ID|Username|Scheduled/)
    // the quoted line is the editor's first line, and the caret points at the mistake in it
    const lines = text.split('\n')
    const quoted = lines.findIndex((line) => line.startsWith('LINE 1: select nope from range(3)'))
    expect(quoted, text).toBeGreaterThan(-1)
    expect(lines[quoted + 1].indexOf('^')).toBe(lines[quoted].indexOf('nope'))
  })
})

describe('parameter values waiting for Apply', () => {
  it('Execute applies them first, in the editor', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select {{ n }}::int * 2 as doubled')
    await page.locator('[data-parameter="n"] input').fill('21')
    await page.getByRole('button', { name: 'Execute' }).click()
    await gridCell(page, '42').waitFor()
    expect(await page.locator('[data-parameter="n"][data-pending]').count()).toBe(0)
  })

  it('Refresh Now applies them first, on the query page', async () => {
    const q = (await call<{ id: number }>('POST', '/api/queries', {
      name: 'Doubler', data_source_id: warehouse, query: 'select {{ n }}::int * 2 as doubled',
      options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 1 }] },
    })).json
    const { page } = await suite.open(`/queries/${q.id}`)
    await gridCell(page, '2').waitFor()
    await page.locator('[data-parameter="n"] input').fill('21')
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await gridCell(page, '42').waitFor()
    expect(new URL(page.url()).searchParams.get('p_n')).toBe('21')
  })
})

describe("a run's toast", () => {
  it('names what ran without saying it was saved', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select 1 as one')
    await page.keyboard.press('Control+Enter')
    await toastWith(page, 'Query ran: 1 row.').waitFor()
    expect(await toastWith(page, 'updated').count()).toBe(0)
  })
})
