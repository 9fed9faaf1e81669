import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, jobEnd, settled, warehouseOptions } from './support.ts'

/**
 * A dashboard's parameters in a real browser, with a worker running the queries on a real PostgreSQL: the panel
 * above the grid, values in the address (kept by the dashboard's router, so back restores them), only the widgets
 * mapped to a changed parameter running again, a widget's own parameter on its card, and a fixed value.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
let warehouse: number
let board = ''
const ids = { tens: 0, hundreds: 0, plain: 0, own: 0, fixed: 0, ownWidget: 0, words: 0 }
const mapping = { board: '', id: 0, tensWidget: 0, ownWidget: 0, wordsWidget: 0 }

type Query = { id: number; visualizations: { id: number }[] }
const number = (name: string, value: number) => ({ name, title: name.toUpperCase(), type: 'number', value })
const newQuery = (name: string, query: string, parameters: unknown[] = []) =>
  api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query, options: { parameters } })
const sql = () => suite.server.db.sql
const executionsOf = async (queryId: number) =>
  Number((await sql()<{ n: string }[]>`select count(*) as n from executions where query_id = ${queryId}`)[0].n)

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const tens = await newQuery('Tens', 'select {{ n }} * 10 as tens', [number('n', 1)])
  const hundreds = await newQuery('Hundreds', 'select {{ m }} * 100 as hundreds', [number('m', 5)])
  // published, so Add Widget may pick it
  await api('POST', `/api/queries/${hundreds.id}`, { is_draft: false })
  const plain = await newQuery('Plain', 'select 7 as plain')
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${plain.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const own = await newQuery('Own', 'select {{ k }} * 11 as own', [number('k', 2)])
  const fixed = await newQuery('Fixed', 'select {{ s }} + 1 as fixed', [number('s', 1)])
  Object.assign(ids, { tens: tens.id, hundreds: hundreds.id, plain: plain.id, own: own.id, fixed: fixed.id })
  const d = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Levels' })
  const add = (q: Query, row: number, col: number, parameterMappings: Record<string, unknown> = {}) =>
    api<{ id: number }>('POST', '/api/widgets', {
      dashboard_id: d.id, visualization_id: q.visualizations[0].id, options: { parameterMappings, position: { col, row, sizeX: 2, sizeY: 4 } },
    })
  const level = (name: string) => ({ [name]: { name, type: 'dashboard-level', mapTo: 'level', value: null, title: 'Level' } })
  await add(tens, 0, 0, level('n'))
  await add(hundreds, 0, 2, level('m'))
  await add(plain, 0, 4)
  ids.ownWidget = (await add(own, 4, 0)).id
  await add(fixed, 4, 2, { s: { name: 's', type: 'static-value', mapTo: 's', value: 41, title: '' } })
  await api('POST', `/api/dashboards/${d.id}`, { is_draft: false })
  board = `/dashboards/${d.id}-${d.slug}`

  // a second dashboard whose mappings the tests change in edit mode
  const words = await newQuery('Words', "select '{{ word }}' as word", [{ name: 'word', title: 'Word', type: 'text', value: 'plain' }])
  ids.words = words.id
  const m = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Mappings' })
  const put = (q: Query, col: number, parameterMappings: Record<string, unknown> = {}) =>
    api<{ id: number }>('POST', '/api/widgets', { dashboard_id: m.id, visualization_id: q.visualizations[0].id, options: { parameterMappings, position: { col, row: 0, sizeX: 2, sizeY: 5 } } })
  mapping.tensWidget = (await put(tens, 0, level('n'))).id
  mapping.ownWidget = (await put(own, 2)).id
  mapping.wordsWidget = (await put(words, 4)).id
  await api('POST', `/api/dashboards/${m.id}`, { is_draft: false })
  Object.assign(mapping, { board: `/dashboards/${m.id}-${m.slug}`, id: m.id })
}, 120_000)

const widget = (page: Page, queryName: string) => page.locator('article[data-widget-id]', { has: page.getByRole('heading', { name: queryName }) })
const cell = (page: Page, queryName: string, text: string) => widget(page, queryName).getByRole('cell', { name: text, exact: true })

/** The board, its parameters island and widgets hydrated, and the runs it asks for from then on. */
async function openBoard(search = '', path = board) {
  const opened = await suite.newPage({ viewport: DESKTOP })
  const runs: string[] = []
  opened.page.on('request', (r) => {
    const m = /^\/api\/queries\/(\d+)\/results$/.exec(new URL(r.url()).pathname)
    if (r.method() === 'POST' && m) runs.push(m[1])
  })
  await opened.page.goto(suite.server.url + path + search)
  await opened.page.locator('sightline-island[data-name="DashboardParameters"][data-hydrated]').waitFor({ state: 'attached' })
  await settled(opened.page)
  return { ...opened, runs }
}
const runsOf = (runs: string[], queryId: number) => runs.filter((id) => id === String(queryId)).length

describe('dashboard parameters', () => {
  it('runs the widgets with their values on first view: the mapped default, the own one, the fixed one', async () => {
    const { page, problems } = await openBoard()
    const panel = page.getByRole('region', { name: 'Dashboard parameters' })
    expect(await panel.getByLabel('Level').inputValue()).toBe('1')
    // both mapped widgets run with the dashboard parameter's value, cloned from the first widget's parameter
    await cell(page, 'Tens', '10').waitFor()
    await cell(page, 'Hundreds', '100').waitFor()
    await cell(page, 'Own', '22').waitFor()
    await cell(page, 'Fixed', '42').waitFor()
    await cell(page, 'Plain', '7').waitFor()
    expect(problems).toEqual([])
  })

  it('re-runs only the widgets mapped to a changed parameter, keeps the value in the address, and back restores it', async () => {
    const { page, runs, problems } = await openBoard()
    await cell(page, 'Hundreds', '100').waitFor()
    await cell(page, 'Own', '22').waitFor()
    await cell(page, 'Fixed', '42').waitFor()
    const before = { plain: await executionsOf(ids.plain), own: await executionsOf(ids.own), fixed: await executionsOf(ids.fixed) }
    runs.length = 0
    const input = page.getByRole('region', { name: 'Dashboard parameters' }).getByLabel('Level')
    await input.fill('3')
    await input.press('Control+Enter')
    await cell(page, 'Tens', '30').waitFor()
    await cell(page, 'Hundreds', '300').waitFor()
    expect(new URL(page.url()).searchParams.get('p_level')).toBe('3')
    expect(runs.sort()).toEqual([String(ids.tens), String(ids.hundreds)].sort())
    expect({ plain: await executionsOf(ids.plain), own: await executionsOf(ids.own), fixed: await executionsOf(ids.fixed) }).toEqual(before)

    await page.goBack()
    await cell(page, 'Tens', '10').waitFor()
    await cell(page, 'Hundreds', '100').waitFor()
    expect(new URL(page.url()).searchParams.has('p_level')).toBe(false)
    expect(await input.inputValue()).toBe('1')
    await page.goForward()
    await cell(page, 'Tens', '30').waitFor()
    expect(await input.inputValue()).toBe('3')
    expect(runsOf(runs, ids.plain) + runsOf(runs, ids.own) + runsOf(runs, ids.fixed)).toBe(0)
    expect(problems).toEqual([])
  })

  it('redraws the applied widgets with the server\'s drawing: the chart code is never loaded', async () => {
    const { page, scripts, problems } = await openBoard()
    await cell(page, 'Tens', '10').waitFor()
    const input = page.getByRole('region', { name: 'Dashboard parameters' }).getByLabel('Level')
    await input.fill('5')
    await page.getByRole('region', { name: 'Dashboard parameters' }).getByRole('button', { name: /^Apply/ }).click()
    await widget(page, 'Tens').locator('[data-drawn-by="redrawn"]').getByRole('cell', { name: '50', exact: true }).waitFor()
    await widget(page, 'Hundreds').locator('[data-drawn-by="redrawn"]').getByRole('cell', { name: '500', exact: true }).waitFor()
    // the page's drawing of the widget without parameters stays as the server first drew it
    expect(await widget(page, 'Plain').locator('[data-drawn-by="server"]').count()).toBe(1)
    const loaded = scripts.map((url) => new URL(url).pathname)
    expect(loaded.filter((path) => /\/(render|ChartView)-[A-Z0-9]+\.js$/.test(path))).toEqual([])
    expect(loaded.some((path) => path.includes('/DashboardWidget-'))).toBe(true)
    expect(problems).toEqual([])
  })

  it('opens with the values the address gives, widget parameters included', async () => {
    const { page, problems } = await openBoard(`?p_level=4&p_w${ids.ownWidget}_k=6`)
    await cell(page, 'Tens', '40').waitFor()
    await cell(page, 'Hundreds', '400').waitFor()
    await cell(page, 'Own', '66').waitFor()
    expect(problems).toEqual([])
  })

  it("applies a widget's own parameter from its card, running that widget only", async () => {
    const { page, runs, problems } = await openBoard()
    await cell(page, 'Own', '22').waitFor()
    await cell(page, 'Tens', '10').waitFor()
    runs.length = 0
    const own = widget(page, 'Own').getByRole('group', { name: /^Parameters of / }).getByLabel('K')
    await own.fill('9')
    await widget(page, 'Own').getByRole('button', { name: /^Apply/ }).click()
    await cell(page, 'Own', '99').waitFor()
    expect(new URL(page.url()).searchParams.get(`p_w${ids.ownWidget}_k`)).toBe('9')
    expect(runs).toEqual([String(ids.own)])
    // the fixed value has no input anywhere
    expect(await page.getByLabel('S', { exact: true }).count()).toBe(0)
    expect(problems).toEqual([])
  })
})

describe('the Widget Parameters dialog', () => {
  type Dashboard = { options: Record<string, unknown>; widgets: { id: number; options: { parameterMappings?: Record<string, unknown> } }[] }
  const stored = () => api<Dashboard>('GET', `/api/dashboards/${mapping.id}`)
  const mappingsOf = async (widgetId: number) => (await stored()).widgets.find((w) => w.id === widgetId)?.options.parameterMappings
  async function openDialog(page: Page, widgetId: number) {
    await page.getByRole('button', { name: `Edit parameters of widget ${widgetId}` }).click()
    return page.getByRole('dialog', { name: 'Widget Parameters' })
  }

  it("maps a widget's parameter to a new or an existing dashboard parameter, with the spec's rules and messages", async () => {
    const { page, problems } = await openBoard('?edit', mapping.board)
    const dialog = await openDialog(page, mapping.ownWidget)
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(700)
    const row = dialog.locator('[data-mapping="k"]')
    const source = row.getByLabel('Value Source')
    expect(await source.inputValue()).toBe('widget')
    await source.selectOption('new')
    const keyword = row.getByLabel('Keyword')
    expect(await keyword.inputValue()).toBe('k')
    const ok = dialog.getByRole('button', { name: 'OK' })
    await keyword.fill('')
    await row.getByRole('alert').filter({ hasText: 'Keyword must have a value' }).waitFor()
    expect(await ok.isDisabled()).toBe(true)
    await keyword.fill('level')
    await row.getByRole('alert').filter({ hasText: 'A parameter with this name already exists' }).waitFor()
    expect(await ok.isDisabled()).toBe(true)
    // a title is at most 100 characters
    await row.getByLabel('Title').fill('x'.repeat(120))
    expect((await row.getByLabel('Title').inputValue()).length).toBe(100)
    await row.getByLabel('Title').fill('')
    // the existing "level" is a number, as k is
    await source.selectOption('existing')
    expect(await row.getByLabel('Existing dashboard parameter').inputValue()).toBe('level')
    await ok.click()
    await expect.poll(() => mappingsOf(mapping.ownWidget)).toMatchObject({ k: { type: 'dashboard-level', mapTo: 'level' } })
    await page.locator('[data-dashboard-edit-grid]').waitFor()
    expect(problems).toEqual([])
  })

  it('offers existing parameters of the same type only, and fixes a static value, saved with Done', async () => {
    const { page, problems } = await openBoard('?edit', mapping.board)
    const dialog = await openDialog(page, mapping.wordsWidget)
    const row = dialog.locator('[data-mapping="word"]')
    const existing = row.getByRole('option', { name: 'Existing dashboard parameter' })
    expect(await existing.isDisabled()).toBe(true)
    expect(await existing.getAttribute('title')).toBe('There is no dashboard parameter of this type yet.')
    await row.getByLabel('Value Source').selectOption('static')
    // switching to a static value takes the parameter's value
    expect(await row.getByLabel('Value', { exact: true }).inputValue()).toBe('plain')
    await row.getByLabel('Value', { exact: true }).fill('fixed words')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => mappingsOf(mapping.wordsWidget)).toMatchObject({ word: { type: 'static-value', value: 'fixed words' } })
    await page.locator('[data-dashboard-edit-grid]').waitFor()
    await cell(page, 'Words', 'fixed words').waitFor()
    // the dashboard parameter's value in force becomes its saved default on Done
    const level = page.getByRole('region', { name: 'Dashboard parameters' }).getByLabel('Level')
    await level.fill('6')
    await level.press('Control+Enter')
    await cell(page, 'Tens', '60').waitFor()
    await page.getByRole('button', { name: 'Done Editing' }).click()
    await expect.poll(async () => (await stored()).options.parameters).toMatchObject([{ name: 'level', value: 6 }])
    expect(problems).toEqual([])
  })

  it('maps the parameters of a widget being added', async () => {
    const { page, problems } = await openBoard('?edit', mapping.board)
    await page.getByRole('button', { name: 'Add Widget' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Widget' })
    await dialog.getByRole('searchbox').fill('Hundreds')
    await dialog.getByRole('button', { name: 'Hundreds' }).click()
    const row = dialog.locator('[data-mapping="m"]')
    await row.getByLabel('Value Source').selectOption('existing')
    await dialog.getByRole('button', { name: 'Add to Dashboard' }).click()
    await page.getByText('Widget added to dashboard').waitFor()
    const added = (await stored()).widgets.find((w) => w.options.parameterMappings?.m)
    expect(added?.options.parameterMappings).toMatchObject({ m: { type: 'dashboard-level', mapTo: 'level' } })
    expect(problems).toEqual([])
  })
})
