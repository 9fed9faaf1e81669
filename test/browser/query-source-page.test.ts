import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, toastWith, warehouseOptions, screenshot } from './support.ts'
import { openEditor, typeQuery } from './editor.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * The source page is the query page in its source mode: the same header (name, tags, Publish, More menu, a link to
 * the results alone) and the same result area (visualization tabs, Add Visualization and its editor) around the
 * editor, so a chart is tweaked without leaving the text. (That the page loads the visualization editor's code only
 * when it opens is checked in test/pages/query-editor.test.ts.)
 */
const suite = browserSuite({ role: 'all' }) // role 'all': the web process also runs a worker, so executions finish
const { call } = suite
let warehouse: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')

beforeAll(async () => {
  const created = await call<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  expect(created.status).toBe(200)
  warehouse = created.json.id
}, 60_000)

const open = (pathname: string) => openEditor(suite, pathname, { source: warehouse })
type Query = { id: number; name: string; is_draft: boolean; visualizations: { id: number; name: string; type: string }[] }

describe('the source page', () => {
  it('has the query page’s header and visualization tabs around the editor', async () => {
    const q = (await call<Query>('POST', '/api/queries', {
      name: 'Sales by item', data_source_id: warehouse, tags: ['finance'],
      query: "select 'item ' || n as label, n * 10 as amount from generate_series(1, 6) n",
    })).json
    await suite.server.db.sql`insert into visualizations (query_id, type, name, description, options)
      values (${q.id}, 'COUNTER', 'Big number', '', ${suite.server.db.sql.json({ counterColName: 'amount' })})`
    const { page, problems } = await open(`/queries/${q.id}/source`)
    const header = page.locator('[data-query-header]')
    await header.locator('[data-tag]', { hasText: 'finance' }).waitFor()
    expect(await page.getByRole('link', { name: 'Show Results Only' }).getAttribute('href')).toBe(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Show API Key' }).waitFor()
    await page.keyboard.press('Escape')
    await header.locator('[data-schedule]', { hasText: 'Never' }).click()
    await page.getByRole('dialog', { name: 'Refresh Schedule' }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('dialog', { name: 'Refresh Schedule' }).waitFor({ state: 'detached' })

    await page.keyboard.press('Control+Enter')
    await page.locator('[data-results-grid] [role="cell"]', { hasText: 'item 3' }).first().waitFor()
    await page.getByRole('tab', { name: 'Big number' }).click()
    await page.locator('[data-visualization="COUNTER"]').waitFor()
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    await dialog.getByLabel('Visualization Name').fill('Amounts')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('tab', { name: 'Amounts', selected: true }).waitFor()

    // Publish, from the header, after a save from the editor: one version between them, no conflict
    await typeQuery(page, "select 'item ' || n as label, n * 20 as amount from generate_series(1, 6) n")
    await page.keyboard.press('Control+s')
    await toastWith(page, 'Saved.').waitFor()
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByText('Query published').waitFor()
    const saved = (await call<Query>('GET', `/api/queries/${q.id}`)).json
    expect(saved.is_draft).toBe(false)
    expect(saved.visualizations.map((v) => v.name)).toEqual(expect.arrayContaining(['Big number', 'Amounts']))
    expect(await layoutProblems(page, { scope: '[data-query-editor] *', skip: '[data-results-grid], .cm-editor, [data-chart-output]' })).toEqual([])
    fs.mkdirSync(SHOTS, { recursive: true })
    await screenshot(page, { path: path.join(SHOTS, 'query-source-desktop.png') })
    expect(problems).toEqual([])
  })

  it('saves a new query before adding its first visualization', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select 1 as one')
    await page.keyboard.press('Control+Enter')
    await page.locator('[data-row-count]', { hasText: '1 row' }).waitFor()
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    await page.waitForURL(/\/queries\/\d+\/source$/)
    await page.getByRole('dialog', { name: 'Visualization Editor' }).waitFor()
    const id = Number(/\/queries\/(\d+)\/source/.exec(page.url())![1])
    expect((await call<Query>('GET', `/api/queries/${id}`)).json.name).toBe('New Query')
  })
})
