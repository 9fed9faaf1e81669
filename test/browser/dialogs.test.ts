import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, jobEnd, waitForIslands, warehouseOptions } from './support.ts'

/**
 * Where the keyboard is when each dialog of the product opens: in its first field, or on its primary action when it
 * has no field, never on the × of its title bar (typing would go nowhere and Enter would close the dialog).
 */
const suite = browserSuite({ role: 'all' }) // a worker too, so the widget's chart has a result to expand
const { open, api } = suite
let queryId: number
let chartId: number
let boardPath: string
let widgetId: number
let groupId: number

beforeAll(async () => {
  await api('POST', '/api/settings/organization', { feature_show_permissions_control: true })
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const query = await api<{ id: number }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders by region',
    query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders) where orders > {{ least }}",
    options: { parameters: [{ name: 'least', title: 'Least', type: 'number', value: 0 }] },
  })
  queryId = query.id
  chartId = (await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: query.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })).id
  await api('POST', `/api/queries/${query.id}`, { is_draft: false })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: { least: 0 }, max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Regions board' })
  widgetId = (await api<{ id: number }>('POST', '/api/widgets', {
    dashboard_id: board.id, visualization_id: chartId, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
  })).id
  await api('POST', `/api/dashboards/${board.id}`, { is_draft: false })
  boardPath = `/dashboards/${board.id}-${board.slug}`
  groupId = (await api<{ id: number }>('POST', '/api/groups', { name: 'Readers' })).id
}, 90_000)

/** What has the focus: whether it is inside the open dialog, and the name a person would give it. */
async function focusIn(dialog: Locator) {
  await dialog.waitFor()
  const page = dialog.page()
  await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"], [role="alertdialog"]') != null)
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement & { labels?: NodeListOf<HTMLLabelElement> }
    const dialogEl = el.closest('[role="dialog"], [role="alertdialog"]')!
    const name = el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent?.trim() ?? (el.getAttribute('placeholder') || el.textContent?.trim() || '')
    return { dialog: dialogEl.querySelector('h2')?.textContent ?? '', tag: el.tagName.toLowerCase(), name }
  })
}

const dialogNamed = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name })
const more = (page: Page) => page.getByRole('button', { name: 'More actions' }).click()
/** The same page, gone on to `pathname` (a page of its own for each address would start a renderer for each). */
const visit = async (page: Page, pathname: string) => {
  await page.goto(suite.server.url + pathname)
  await waitForIslands(page)
}

describe('every dialog opens on its first field or its primary action', () => {
  it('in the settings pages', async () => {
    const { page } = await open('/groups')
    await page.getByRole('button', { name: 'New Group' }).click()
    expect(await focusIn(dialogNamed(page, 'New Group'))).toEqual({ dialog: 'New Group', tag: 'input', name: 'Name' })
    // typing goes into the name, and Enter creates the group
    await page.keyboard.type('Typed group')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/groups\/\d+$/)

    await visit(page, `/groups/${groupId}`)
    await page.getByRole('button', { name: 'Add Members' }).click()
    expect((await focusIn(dialogNamed(page, 'Add Members'))).tag).toBe('input')
    await visit(page, `/groups/${groupId}/data_sources`)
    await page.getByRole('button', { name: 'Add Data Sources' }).click()
    expect((await focusIn(dialogNamed(page, 'Add Data Sources'))).tag).toBe('input')

    await visit(page, '/users/new')
    expect(await focusIn(dialogNamed(page, 'Create a New User'))).toMatchObject({ tag: 'input', name: 'Name' })
    await visit(page, '/data_sources/new')
    expect(await focusIn(dialogNamed(page, 'Create a New Data Source'))).toMatchObject({ tag: 'input', name: 'Search data source types' })
    await visit(page, '/destinations/new')
    expect(await focusIn(dialogNamed(page, 'Create a New Alert Destination'))).toMatchObject({ tag: 'input', name: 'Search alert destination types' })
    await visit(page, '/query_snippets/new')
    expect(await focusIn(dialogNamed(page, 'Create Query Snippet'))).toMatchObject({ tag: 'input', name: 'Trigger' })
    await visit(page, '/dashboards/new')
    expect(await focusIn(dialogNamed(page, 'New Dashboard'))).toMatchObject({ tag: 'input' })
  })

  it('on a dashboard', async () => {
    const { page } = await open(boardPath)
    await page.getByRole('button', { name: 'Share' }).click()
    expect(await focusIn(dialogNamed(page, 'Share Dashboard'))).toMatchObject({ tag: 'input', name: 'Allow public access' })
    await page.keyboard.press('Escape')

    await more(page)
    await page.getByRole('menuitem', { name: 'Manage Permissions' }).click()
    expect(await focusIn(dialogNamed(page, 'Manage Permissions'))).toMatchObject({ tag: 'input', name: 'Add a user' })
    await page.keyboard.press('Escape')

    await page.getByRole('button', { name: /^Actions for / }).click()
    await page.getByRole('menuitem', { name: 'Expand' }).click()
    // a chart and nothing to fill in or press: the dialog itself, so the keyboard scrolls it
    expect(await focusIn(dialogNamed(page, /Orders by region/))).toMatchObject({ tag: 'div' })
    await page.keyboard.press('Escape')

    const { page: editing } = await open(`${boardPath}?edit`)
    await editing.getByRole('button', { name: 'Add Textbox' }).click()
    expect(await focusIn(dialogNamed(editing, 'Add Textbox'))).toMatchObject({ tag: 'textarea' })
    await editing.keyboard.press('Escape')
    await editing.getByRole('button', { name: 'Add Widget' }).click()
    expect(await focusIn(dialogNamed(editing, 'Add Widget'))).toMatchObject({ tag: 'input' })
    await editing.keyboard.press('Escape')
    await editing.getByRole('button', { name: `Edit parameters of widget ${widgetId}` }).click()
    expect(await focusIn(dialogNamed(editing, 'Widget Parameters'))).toMatchObject({ tag: 'select' })
    await editing.keyboard.press('Escape')
    await editing.getByRole('button', { name: '+ Add tags' }).click()
    expect(await focusIn(dialogNamed(editing, 'Add/Edit Tags'))).toMatchObject({ tag: 'input' })
  })

  it('on a query', async () => {
    const { page } = await open(`/queries/${queryId}`)
    await page.locator('[data-schedule]').first().click()
    expect(await focusIn(dialogNamed(page, 'Refresh Schedule'))).toMatchObject({ tag: 'select', name: 'Refresh every' })
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: '+ Add tags' }).click()
    expect(await focusIn(dialogNamed(page, 'Add/Edit Tags'))).toMatchObject({ tag: 'input' })
    await page.keyboard.press('Escape')
    await more(page)
    await page.getByRole('menuitem', { name: 'Show API Key' }).click()
    expect(await focusIn(dialogNamed(page, 'API Key'))).toMatchObject({ tag: 'input', name: 'API Key' })
    await page.keyboard.press('Escape')
    await page.locator(`[data-tab-id="${chartId}"]`).click()
    await page.locator('[data-embed-button]').click()
    expect(await focusIn(dialogNamed(page, 'Embed Query'))).toMatchObject({ tag: 'input', name: 'Width' })
    await page.keyboard.press('Escape')

    const { page: source } = await open(`/queries/${queryId}/source`)
    await source.getByRole('button', { name: 'Add New Parameter' }).click()
    expect(await focusIn(dialogNamed(source, 'Add Parameter'))).toMatchObject({ tag: 'input', name: 'Keyword' })
    await source.keyboard.press('Escape')
    await source.getByRole('button', { name: 'Add Visualization' }).click()
    expect(await focusIn(dialogNamed(source, 'Visualization Editor'))).toMatchObject({ tag: 'select' })
  })

  it('the help drawer', async () => {
    const { page } = await open('/queries')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
    const focus = await focusIn(dialogNamed(page, 'Help'))
    expect(focus.name).not.toBe('Close')
  })
})
