import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setClientFactory, type DatabricksClient, type DatabricksOperation } from '../../src/runners/index.ts'
import { browserSuite, jobEnd, PHONE, settled, toastWith, waitForIslands, warehouseOptions, type PageOptions, screenshot } from './support.ts'
import { openEditor, typeQuery } from './editor.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * The query editor's parameter settings, the toasts after an execution, and the Databricks schema browser, in a
 * real browser against a real server. No warehouse runs here: the Databricks driver is faked at the runner's
 * boundary (as test/api/databricks.test.ts does), which works because the server runs in this process. That a
 * parameter's settings are not offered to someone who cannot edit is checked on the server's HTML (test/pages).
 */
const suite = browserSuite({ role: 'all' })
const { call } = suite
let warehouse: number
let lakehouse: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')

const warehouseCalls: string[] = []
const op = (rows: object[]): DatabricksOperation => ({
  fetchChunk: async () => rows, hasMoreRows: async () => false, getSchema: async () => null, cancel: async () => {}, close: async () => {},
})
const fakeWarehouse: DatabricksClient = {
  connect: async () => fakeWarehouse,
  close: async () => {},
  openSession: async () => ({
    close: async () => {},
    executeStatement: async (statement) => {
      warehouseCalls.push(statement)
      return op(['sales', 'marketing', 'broken'].map((databaseName) => ({ databaseName })))
    },
    getTables: async ({ schemaName }) => {
      warehouseCalls.push(`tables ${schemaName}`)
      if (schemaName === 'broken') throw new Error('PERMISSION_DENIED')
      return op(schemaName === 'sales' ? [{ TABLE_NAME: 'orders' }, { TABLE_NAME: 'customers' }] : [{ TABLE_NAME: 'campaigns' }])
    },
    getColumns: async ({ tableName }) => {
      warehouseCalls.push(`columns ${tableName}`)
      return op([{ COLUMN_NAME: `${tableName}_id`, TYPE_NAME: 'BIGINT' }, { COLUMN_NAME: 'placed_at', TYPE_NAME: 'TIMESTAMP' }])
    },
  }),
}

beforeAll(async () => {
  setClientFactory(() => fakeWarehouse)
  warehouse = (await call<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).json.id
  lakehouse = (await call<{ id: number }>('POST', '/api/data_sources', {
    name: 'Lakehouse', type: 'databricks', options: { host: 'dbc-1.cloud.databricks.com', http_path: '/sql/1.0/warehouses/x', access_token: 'dapi-1' },
  })).json.id
  fs.mkdirSync(SHOTS, { recursive: true })
}, 60_000)
afterAll(() => setClientFactory(null))

/** The editor at `pathname`, on the Warehouse source unless `source` says another. */
const open = (pathname: string, o: PageOptions & { source?: number } = {}) => openEditor(suite, pathname, { ...o, source: o.source ?? warehouse })

/** Console noise a refused call leaves on purpose (the browser logs every 4xx/5xx response). */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of (4|5)\d\d/.test(p))

const colorParameter = { name: 'color', title: 'Color', type: 'enum', enumOptions: 'red\ngreen\nblue', value: 'red', global: false }

describe('a parameter’s settings', () => {
  it('opens the dialog filled in, keeps the keyword fixed, and saving marks the query changed', async () => {
    const { json } = await call<{ id: number }>('POST', '/api/queries', {
      name: 'Paint', query: "select {{ color }} as c, {{ size }} as s", data_source_id: warehouse,
      options: { parameters: [colorParameter, { name: 'size', title: 'Size', type: 'number', value: 3, global: false }] },
    })
    const { page, problems } = await open(`/queries/${json.id}/source`)
    await page.getByRole('button', { name: 'Color settings' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Parameter' })
    await dialog.waitFor()
    const keyword = dialog.getByLabel('Keyword')
    expect(await keyword.inputValue()).toBe('color')
    expect(await keyword.getAttribute('readonly')).not.toBeNull()
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Color')
    expect(await dialog.getByLabel('Type').inputValue()).toBe('enum')
    expect(await dialog.getByLabel('Values', { exact: true }).inputValue()).toBe('red\ngreen\nblue')
    expect(await page.locator('[data-query-editor][data-unsaved]').count()).toBe(0)

    await dialog.getByLabel('Title').fill('Colour')
    await dialog.getByLabel('Values', { exact: true }).fill('red\ngreen\nblue\nyellow')
    await dialog.getByLabel('Allow multiple values').check()
    await dialog.getByLabel('Quotation').selectOption('single')
    await screenshot(page, { path: path.join(SHOTS, 'editor-parameter-settings-desktop.png') })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('[data-parameter="color"] label', { hasText: 'Colour' }).waitFor()
    await page.locator('[data-query-editor][data-unsaved]').waitFor()
    expect(await page.getByRole('button', { name: /^Save/ }).textContent()).toContain('*')

    await page.keyboard.press('Control+s')
    await page.locator('[data-query-editor]:not([data-unsaved])').waitFor()
    const saved = await call<{ options: { parameters: Record<string, unknown>[] } }>('GET', `/api/queries/${json.id}`)
    expect(saved.json.options.parameters.find((p) => p.name === 'color')).toMatchObject({
      title: 'Colour', type: 'enum', enumOptions: 'red\ngreen\nblue\nyellow', multiValuesOptions: { prefix: "'", suffix: "'", separator: ',' },
    })
    expect(unexpected(problems)).toEqual([])
  })

  it('leaves the query unchanged when the dialog saves what was there', async () => {
    const { json } = await call<{ id: number }>('POST', '/api/queries', {
      name: 'Paint again', query: 'select {{ color }} as c', data_source_id: warehouse, options: { parameters: [colorParameter] },
    })
    const { page } = await open(`/queries/${json.id}/source`)
    await page.getByRole('button', { name: 'Color settings' }).click()
    await page.getByRole('dialog', { name: 'Edit Parameter' }).getByRole('button', { name: 'Save' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    expect(await page.locator('[data-query-editor][data-unsaved]').count()).toBe(0)
  })

  it('adding a parameter refuses a keyword that is taken, with the established text', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select {{ color }}')
    await page.locator('[data-parameter="color"]').waitFor()
    await page.keyboard.press('Control+p')
    const dialog = page.getByRole('dialog', { name: 'Add Parameter' })
    await dialog.getByLabel('Keyword').fill('color')
    await dialog.getByText('Parameter with this name already exists').waitFor()
    expect(await dialog.getByRole('button', { name: 'Add' }).isDisabled()).toBe(true)
    await dialog.getByLabel('Keyword').fill('')
    await dialog.getByText('Choose a keyword for this parameter').waitFor()
  })

  it('fits a phone: the gear beside the label, the dialog within the screen', async () => {
    const { json } = await call<{ id: number }>('POST', '/api/queries', {
      name: 'Paint on a phone', query: 'select {{ color }} as c', data_source_id: warehouse, options: { parameters: [colorParameter] },
    })
    const { page, problems } = await open(`/queries/${json.id}/source`, { viewport: PHONE })
    await page.locator('[data-parameter="color"]').scrollIntoViewIfNeeded()
    await screenshot(page, { path: path.join(SHOTS, 'editor-parameter-gear-phone.png') })
    await page.getByRole('button', { name: 'Color settings' }).click()
    await page.getByRole('dialog', { name: 'Edit Parameter' }).waitFor()
    expect(await layoutProblems(page, { scope: '[role="dialog"] *' })).toEqual([])
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, { path: path.join(SHOTS, 'editor-parameter-settings-phone.png') })
    expect(unexpected(problems)).toEqual([])
  })
})

describe('toasts after an execution (spec 2 §4)', () => {
  it('with nothing to load on opening, every run is announced: it ran, or failed to run with the error', async () => {
    const { page } = await open('/queries/new')
    await page.getByRole('textbox', { name: 'Query name' }).fill('Daily numbers')
    await typeQuery(page, 'select 1 as one')
    await page.keyboard.press('Control+Enter')
    // nothing was saved, so the toast does not name the query as if it had been updated
    const updated = toastWith(page, 'Query ran: 1 row.')
    await updated.waitFor()
    expect(await updated.getAttribute('data-toast')).toBe('success')
    await typeQuery(page, 'select no_such_column')
    await page.keyboard.press('Control+Enter')
    const failed = toastWith(page, 'Query failed to run: ')
    await failed.waitFor()
    expect(await failed.textContent()).toContain('no_such_column')
    expect(await failed.getAttribute('data-toast')).toBe('error')
  })

  it('on a saved query, the stored result is the first load and a run after it is announced', async () => {
    const { json } = await call<{ id: number }>('POST', '/api/queries', { name: 'Stored', query: 'select 7 as seven', data_source_id: warehouse })
    const run = await call<{ job?: { id: string } }>('POST', `/api/queries/${json.id}/results`, { parameters: {}, max_age: 0 })
    if (run.json.job) expect(await jobEnd(suite, run.json.job)).toMatchObject({ status: 3 })
    const { page } = await open(`/queries/${json.id}/source`)
    await page.locator('[data-row-count]', { hasText: '1 row' }).waitFor()
    await settled(page) // a toast for the first load would have come with it
    expect(await page.locator('[data-toast]').count()).toBe(0)
    await page.keyboard.press('Control+Enter')
    await toastWith(page, 'Stored updated.').waitFor()
    expect(await page.locator('[data-toast]').count()).toBe(1)
  })
})

describe('the Databricks schema browser', () => {
  it('lists the databases, the chosen database’s tables, and columns on expand; the choice is remembered', async () => {
    const { page, problems } = await open('/queries/new', { source: lakehouse })
    const select = page.locator('[data-database-select]')
    await select.filter({ hasText: 'sales' }).waitFor()
    await page.getByRole('button', { name: 'sales.orders', exact: true }).waitFor()
    expect(warehouseCalls.filter((c) => c.startsWith('columns'))).toEqual([])
    await page.getByRole('button', { name: 'sales.orders', exact: true }).click()
    await page.getByTitle('Insert orders_id').waitFor()
    expect(await page.getByText('BIGINT').count()).toBe(1)

    await select.click()
    await screenshot(page, { path: path.join(SHOTS, 'editor-databricks-open-desktop.png') })
    await page.getByRole('combobox', { name: 'Search databases…' }).fill('mark')
    expect(await page.getByRole('listbox', { name: 'Database' }).getByRole('option').allTextContents()).toEqual(['marketing'])
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'marketing.campaigns', exact: true }).waitFor()
    expect(await page.getByRole('button', { name: 'sales.orders', exact: true }).count()).toBe(0)
    await screenshot(page, { path: path.join(SHOTS, 'editor-databricks-desktop.png') })
    expect(unexpected(problems)).toEqual([])

    await page.reload()
    await waitForIslands(page)
    await select.filter({ hasText: 'marketing' }).waitFor()
    await page.getByRole('button', { name: 'marketing.campaigns', exact: true }).waitFor()

    const asked = warehouseCalls.filter((c) => c === 'SHOW DATABASES').length
    await page.getByRole('button', { name: 'Refresh Databases and Current Schema' }).click()
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('button[aria-label="Refresh Databases and Current Schema"]')?.disabled)
    expect(warehouseCalls.filter((c) => c === 'SHOW DATABASES').length).toBe(asked + 1)
    expect(await seriousA11yViolations(page)).toEqual([])
  })

  it('says which database’s tables failed to load', async () => {
    const { page } = await open('/queries/new', { source: lakehouse })
    const select = page.locator('[data-database-select]')
    await select.filter({ hasText: /sales|marketing/ }).waitFor()
    await select.click()
    await page.getByRole('option', { name: 'broken' }).click()
    await toastWith(page, 'Failed to load tables for broken.').waitFor()
  })
})
