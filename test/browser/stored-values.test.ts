import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, jobEnd, toastWith, warehouseOptions } from './support.ts'
import { openEditor, typeQuery } from './editor.ts'

/**
 * Controls that show what is stored: a dropdown parameter in the source editor runs with the option its select shows,
 * and the Visualization Editor's column selects show the columns the visualization is saved with, whichever way the
 * editor was opened.
 */
const suite = browserSuite({ role: 'all' }) // a worker too, so executions finish
const { api } = suite
let warehouse: number

type Definition = { name: string; type: string; value: unknown }
type Query = { id: number; options: { parameters: Definition[] }; visualizations: { id: number; type: string; options: Record<string, unknown> }[] }

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
}, 60_000)

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
const open = (pathname: string) => openEditor(suite, pathname, { source: warehouse })
const cell = (page: Page, text: string) => page.locator('[data-results-grid] [role="cell"]', { hasText: text }).first()

describe('a dropdown parameter in the source editor', () => {
  it('runs with the first option its select shows, and saves it, when the saved parameter has no value', async () => {
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Visits by channel', query: "select '{{ channel }}' as channel",
      options: { parameters: [{ name: 'channel', title: 'Channel', type: 'enum', enumOptions: 'web\nmobile', value: null }] },
    })
    const { page, problems } = await open(`/queries/${query.id}/source`)
    expect(await page.getByLabel('Channel', { exact: true }).inputValue()).toBe('web')
    await page.getByRole('button', { name: 'Execute' }).click()
    await cell(page, 'web').waitFor()
    expect(await page.getByText(/missing value/).count()).toBe(0)
    await page.keyboard.press('Control+s')
    await toastWith(page, 'Saved.').waitFor()
    expect((await api<Query>('GET', `/api/queries/${query.id}`)).options.parameters[0]).toMatchObject({ name: 'channel', value: 'web' })
    expect(problems).toEqual([])
  })

  it('runs a dropdown just added through Add New Parameter with the option it shows', async () => {
    const { page, problems } = await open('/queries/new')
    await typeQuery(page, 'select ')
    await page.getByRole('button', { name: 'Add New Parameter' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Parameter' })
    await dialog.getByLabel('Keyword').fill('channel')
    await dialog.getByLabel('Title').fill('Channel')
    await dialog.getByLabel('Type').selectOption('enum')
    await dialog.getByLabel('Values', { exact: true }).fill('web\nmobile')
    await dialog.getByRole('button', { name: 'Add Parameter', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await typeQuery(page, "select '{{ channel }}' as channel")
    expect(await page.getByLabel('Channel', { exact: true }).inputValue()).toBe('web')
    await page.getByRole('button', { name: 'Execute' }).click()
    await cell(page, 'web').waitFor()
    expect(await page.getByText(/missing value/).count()).toBe(0)
    // choosing the other option and back again runs with each
    await page.getByLabel('Channel', { exact: true }).selectOption('mobile')
    await page.getByRole('button', { name: /^Apply/ }).click()
    await cell(page, 'mobile').waitFor()
    expect(problems).toEqual([])
  })
})

describe('the Visualization Editor opened before the result is there', () => {
  it('sets a new Markers map on the result\'s latitude and longitude once it arrives, and its selects show what is saved', async () => {
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Offices on a map',
      query: "select 'Paris' as place, 48.85::float8 as latitude, 2.35::float8 as longitude union all select 'Oslo', 59.91, 10.75",
    })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    // the page's stored result is held back until the editor is open: the path where it opens without columns
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const { page, problems } = await suite.open(`/queries/${query.id}`, {
      prepare: async (context) => {
        await context.route(/\/api\/query_results\/\d+$/, async (route) => {
          await held
          await route.continue()
        })
        // the default tile server is a third party's: its tiles are answered here
        await context.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG }))
      },
    })
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    await dialog.getByLabel('Visualization Type').selectOption('MAP')
    const lat = dialog.getByLabel('Latitude Column')
    const lon = dialog.getByLabel('Longitude Column')
    // no result yet: the selects say the map would read `lat` and `lon`, which are not there
    expect(await lat.locator('option:checked').textContent()).toBe('lat (not available)')
    expect(await lon.locator('option:checked').textContent()).toBe('lon (not available)')
    release()
    await page.locator('[data-results-grid] [role="cell"]', { hasText: 'Paris' }).first().waitFor()
    await expect.poll(() => lat.inputValue()).toBe('latitude')
    expect(await lon.inputValue()).toBe('longitude')
    await expect.poll(() => dialog.locator('[data-preview-output] circle.sl-marker').count()).toBe(2)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    const saved = (await api<Query>('GET', `/api/queries/${query.id}`)).visualizations.find((v) => v.type === 'MAP')!
    expect(saved.options).toMatchObject({ latColumn: 'latitude', lonColumn: 'longitude' })
    expect(problems).toEqual([])
  })

  it('shows a saved column the result lacks as unavailable, never as another column', async () => {
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Counted', query: 'select 1 as one, 2 as two',
    })
    const counter = await api<{ id: number }>('POST', '/api/visualizations', { query_id: query.id, type: 'COUNTER', name: 'Gone', options: { counterColName: 'total' } })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    const { page } = await suite.open(`/queries/${query.id}#${counter.id}`)
    await page.getByRole('button', { name: 'Edit Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    const column = dialog.getByLabel('Counter Value Column')
    expect(await column.inputValue()).toBe('total')
    expect(await column.locator('option:checked').textContent()).toBe('total (not available)')
  })
})

describe('other selects show what is in force', () => {
  it('lists a saved refresh interval the organization does not offer, rather than showing Never', async () => {
    const query = await api<Query & { schedule: unknown }>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Every ninety minutes', query: 'select 1',
      schedule: { interval: 5400, time: null, day_of_week: null, until: null },
    })
    const { page } = await suite.open(`/queries/${query.id}`)
    await page.locator('[data-schedule]').click()
    const dialog = page.getByRole('dialog', { name: 'Refresh Schedule' })
    expect(await dialog.getByLabel('Refresh every').inputValue()).toBe('5400')
  })

  it('says a weekly schedule saved without a weekday runs on the last run’s weekday, rather than showing Monday', async () => {
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Every week', query: 'select 1',
      schedule: { interval: 604800, time: '09:00', day_of_week: null, until: null },
    })
    const { page } = await suite.open(`/queries/${query.id}`)
    await page.locator('[data-schedule]').click()
    const day = page.getByRole('dialog', { name: 'Refresh Schedule' }).getByRole('combobox', { name: 'On', exact: true })
    expect(await day.inputValue()).toBe('')
    expect(await day.locator('option:checked').textContent()).toBe('The last run’s weekday')
  })

  it('says a counter without a chosen column shows the first one', async () => {
    const query = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name: 'Plain counter', query: 'select 7 as seven, 8 as eight' })
    const counter = await api<{ id: number }>('POST', '/api/visualizations', { query_id: query.id, type: 'COUNTER', name: 'Count', options: {} })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    const { page } = await suite.open(`/queries/${query.id}#${counter.id}`)
    await page.locator('[data-visualization="COUNTER"]', { hasText: '7' }).waitFor()
    await page.getByRole('button', { name: 'Edit Visualization' }).click()
    const column = page.getByRole('dialog', { name: 'Visualization Editor' }).getByLabel('Counter Value Column')
    expect(await column.locator('option:checked').textContent()).toBe('(first column)')
  })

  it('shows a filter value from the address that the result lacks as chosen, not the first value', async () => {
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Stock by region', query: `select * from (values ('East', 'stock-e1'), ('North', 'stock-n1')) as t("region::filter", item)`,
    })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Stock board' })
    const table = (await api<Query>('GET', `/api/queries/${query.id}`)).visualizations[0]
    await api('POST', '/api/widgets', { dashboard_id: board.id, visualization_id: table.id, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } } })
    const { page } = await suite.open(`/dashboards/${board.id}-${board.slug}?region=West`)
    const card = page.locator('article[data-widget-id]', { has: page.getByRole('heading', { name: 'Stock by region' }) })
    // no row is West: the card is empty, and its filter says why
    expect(await card.getByText('stock-e1', { exact: true }).count()).toBe(0)
    expect(await card.getByLabel('region', { exact: true }).inputValue()).toBe('West')
  })
})

describe('the alert form’s parameter inputs', () => {
  it('stores the option a dropdown shows when the alert names no value for it and the query has none saved', async () => {
    const channel = { name: 'channel', title: 'Channel', type: 'enum', enumOptions: 'web\nmobile', value: 'web' }
    const limit = { name: 'n', title: 'Limit', type: 'number', value: 1 }
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Visits per channel', query: "select {{ n }} * 100 as visits, '{{ channel }}' as channel",
      options: { parameters: [limit, channel] },
    })
    await api('POST', `/api/queries/${query.id}`, { is_draft: false })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    // the alert names only the limit; the channel came from the query's saved value, which is then cleared
    const alert = await api<{ id: number }>('POST', '/api/alerts', {
      name: 'Busy channel', query_id: query.id, options: { column: 'visits', op: '>', value: 50, parameters: { n: 2 } },
    })
    await api('POST', `/api/queries/${query.id}`, { options: { parameters: [limit, { ...channel, value: null }] } })

    const { page, problems } = await suite.open(`/alerts/${alert.id}/edit`)
    const select = page.getByLabel('Channel', { exact: true })
    expect(await select.inputValue()).toBe('web')
    expect(await page.getByLabel('Limit', { exact: true }).inputValue()).toBe('2')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await page.waitForURL(new RegExp(`/alerts/${alert.id}$`))
    expect(await api('GET', `/api/alerts/${alert.id}`)).toMatchObject({ options: { parameters: { n: 2, channel: 'web' } } })
    expect(problems).toEqual([])
  })
})

describe('the chart editor with no column mapping', () => {
  it('shows the columns the chart draws: the first across, the numeric ones up', async () => {
    const query = await api<Query>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Unmapped chart', query: "select * from (values ('North', 120, 3), ('South', 80, 5)) as t(region, orders, returns)",
    })
    const chart = await api<{ id: number }>('POST', '/api/visualizations', { query_id: query.id, type: 'CHART', name: 'Plain', options: { globalSeriesType: 'column' } })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    const { page, problems } = await suite.open(`/queries/${query.id}#${chart.id}`)
    await page.locator(`[data-chart-output="${chart.id}"] svg`).first().waitFor()
    await page.getByRole('button', { name: 'Edit Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    expect(await dialog.getByLabel('X Column').inputValue()).toBe('region')
    const ys = dialog.getByRole('group', { name: 'Y Columns' })
    expect(await ys.getByLabel('orders').isChecked()).toBe(true)
    expect(await ys.getByLabel('returns').isChecked()).toBe(true)
    // a change keeps the rest as drawn: taking returns away leaves region across and orders up
    await ys.getByLabel('returns').uncheck()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    const saved = (await api<Query>('GET', `/api/queries/${query.id}`)).visualizations.find((v) => v.id === chart.id)!
    expect(saved.options.columnMapping).toEqual({ region: 'x', orders: 'y' })
    expect(problems).toEqual([])
  })
})

describe('a data source’s settings', () => {
  it('show the engine’s default for a setting the source does not store, and saving stores it', async () => {
    const before = await api<{ options: Record<string, unknown> }>('GET', `/api/data_sources/${warehouse}`)
    expect(before.options).not.toHaveProperty('annotate_queries')
    expect(before.options).not.toHaveProperty('sslmode')
    const { page, problems } = await suite.open(`/data_sources/${warehouse}`)
    // queries on it are annotated and connect with sslmode=prefer: that is what shows
    expect(await page.getByLabel('SSL Mode').inputValue()).toBe('prefer')
    await page.getByRole('button', { name: 'Additional Settings' }).click()
    expect(await page.getByLabel(/^Annotate queries/).isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    const after = await api<{ options: Record<string, unknown> }>('GET', `/api/data_sources/${warehouse}`)
    expect(after.options).toMatchObject({ annotate_queries: true, sslmode: 'prefer' })
    expect(problems).toEqual([])
  })
})
