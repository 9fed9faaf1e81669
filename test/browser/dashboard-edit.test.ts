import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import {
  addUser, browserSuite, DESKTOP, jobEnd, MEMBER, PHONE, settled, signInOverHttp, toastWith, waitForIslands, warehouseOptions,
} from './support.ts'

/**
 * The dashboard page's header and edit mode in a real browser: the owner arranges widgets on the grid (dragged and
 * resized with the mouse, saved after the pause, kept across a reload), adds text boxes and charts, removes one, and
 * uses every header control; a member who may not edit gets none of it until granted.
 */
const suite = browserSuite({ role: 'all' }) // a worker too, so the query has a stored result to draw
const { open, api } = suite
let chartId: number
let member: Map<string, string>

interface Position { col: number; row: number; sizeX: number; sizeY: number }
interface BoardJson { id: number; slug: string; name: string; version: number; is_draft: boolean; is_archived: boolean; tags: string[]; widgets: { id: number; text: string; options: { position: Position } }[] }

/** A dashboard of the admin's with a chart at the left and a text box beside it, published unless asked. */
async function board(name: string, o: { draft?: boolean } = {}) {
  const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
  const chart = await api<{ id: number }>('POST', '/api/widgets', { dashboard_id: created.id, visualization_id: chartId, options: { position: { col: 0, row: 0, sizeX: 2, sizeY: 5 } } })
  const text = await api<{ id: number }>('POST', '/api/widgets', { dashboard_id: created.id, visualization_id: null, text: 'Notes on **orders**', options: { position: { col: 2, row: 0, sizeX: 2, sizeY: 5 } } })
  if (!o.draft) await api('POST', `/api/dashboards/${created.id}`, { is_draft: false })
  return { id: created.id, path: `/dashboards/${created.id}-${created.slug}`, chart: chart.id, text: text.id }
}

const positions = async (id: number) =>
  new Map((await api<BoardJson>('GET', `/api/dashboards/${id}`)).widgets.map((w) => [w.id, w.options.position]))

/** Press the mouse on `from`, move by (dx, dy) in steps, as a hand does, and let go. */
async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  for (let step = 1; step <= 10; step++) await page.mouse.move(from.x + (dx * step) / 10, from.y + (dy * step) / 10)
  await page.mouse.up()
}

const saveStatus = (page: Page) => page.locator('[data-save-status]')
const more = async (page: Page) => page.getByRole('button', { name: 'More actions' }).click()

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const query = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders by region', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
  })
  chartId = (await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: query.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })).id
  await api('POST', `/api/queries/${query.id}`, { is_draft: false })
  await api('POST', '/api/queries', { data_source_id: warehouse, name: 'Orders draft', query: 'select 1' })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
}, 60_000)

describe('edit mode', () => {
  it('drags a widget to another column and resizes one, saves after the pause and keeps the layout', async () => {
    const b = await board('Arranged board')
    // the page's own clock, so the save's 2 s pause is counted, not waited for
    const { page, problems } = await open(b.path, { prepare: (context) => context.clock.install() })
    await more(page)
    await page.getByRole('menuitem', { name: 'Edit' }).click()
    expect(new URL(page.url()).searchParams.has('edit')).toBe(true)
    const chart = page.locator(`[data-edit-widget="${b.chart}"]`)
    const text = page.locator(`[data-edit-widget="${b.text}"]`)
    await text.waitFor()
    await saveStatus(page).getByText('Saved').waitFor()
    const [chartBox, textBox] = [(await chart.boundingBox())!, (await text.boundingBox())!]
    const column = (textBox.x - chartBox.x) / 2 // two columns apart

    // the text box two columns to the right
    await drag(page, { x: textBox.x + textBox.width / 2, y: textBox.y + textBox.height / 2 }, 2 * column, 0)
    await saveStatus(page).getByText('Saving').waitFor()
    await page.clock.runFor(2_000)
    await saveStatus(page).getByText('Saved').waitFor()
    // the chart one column wider and two rows (50 px each) taller, by its corner
    const handle = chart.locator('.react-resizable-handle')
    const corner = (await handle.boundingBox())!
    await drag(page, { x: corner.x + corner.width / 2, y: corner.y + corner.height / 2 }, column, 100)
    await saveStatus(page).getByText('Saving').waitFor()
    await page.clock.runFor(2_000)
    await saveStatus(page).getByText('Saved').waitFor()

    const saved = await positions(b.id)
    expect(saved.get(b.text)).toMatchObject({ col: 4, row: 0, sizeX: 2, sizeY: 5 })
    expect(saved.get(b.chart)).toMatchObject({ col: 0, row: 0, sizeX: 3, sizeY: 7 })

    await page.getByRole('button', { name: 'Done Editing' }).click()
    await page.waitForURL((url) => !url.searchParams.has('edit'))
    expect(await page.locator('[data-dashboard-edit]').count()).toBe(0)
    await page.reload()
    await waitForIslands(page)
    const after = await page.locator('[data-widget-id]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    // the chart three columns wide at the left, the text box in the last two columns
    expect(after[1].left).toBeGreaterThan(after[0].right + column / 2)
    expect(after[0].height).toBeGreaterThan(7 * 50 - 20)
    expect(problems).toEqual([])
  })

  it('adds a text box with a preview, adds a chart found by searching, and deletes a widget after confirming', async () => {
    const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Built board' })
    const { page, problems } = await open(`/dashboards/${created.id}-${created.slug}?edit`)
    // the box ticks at once, and the setting is saved meanwhile
    await page.getByRole('checkbox', { name: 'Use Dashboard Level Filters' }).click()
    expect(await page.getByRole('checkbox', { name: 'Use Dashboard Level Filters' }).isChecked()).toBe(true)
    await expect.poll(async () => (await api<{ dashboard_filters_enabled: boolean }>('GET', `/api/dashboards/${created.id}`)).dashboard_filters_enabled).toBe(true)
    await page.getByRole('button', { name: 'Add Textbox' }).click()
    const textDialog = page.getByRole('dialog', { name: 'Add Textbox' })
    await textDialog.getByLabel('Text').fill('## Weekly *figures*')
    await textDialog.locator('[data-textbox-preview] h2', { hasText: 'Weekly figures' }).waitFor()
    await textDialog.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Widget added to dashboard').waitFor()
    await page.locator('[data-edit-widget] h2', { hasText: 'Weekly figures' }).waitFor()

    await page.getByRole('button', { name: 'Add Widget' }).click()
    const widgetDialog = page.getByRole('dialog', { name: 'Add Widget' })
    await widgetDialog.getByPlaceholder('Search Queries...').fill('Orders')
    expect(await widgetDialog.getByRole('button', { name: /Orders draft/ }).isDisabled()).toBe(true)
    await widgetDialog.getByRole('button', { name: 'Orders by region' }).click()
    await widgetDialog.getByLabel('Choose Visualization').selectOption({ label: 'Bars' })
    await widgetDialog.getByRole('button', { name: 'Add to Dashboard' }).click()
    await toastWith(page, 'Widget added to dashboard').waitFor()
    await page.locator('[data-edit-widget]').nth(1).waitFor()
    const widgets = (await api<BoardJson>('GET', `/api/dashboards/${created.id}`)).widgets
    expect(widgets).toHaveLength(2)
    // the lowest free position: the half-width chart went beside the half-width text box, not below it
    expect(widgets[0].options.position).toMatchObject({ col: 0, row: 0, sizeX: 3 })
    expect(widgets[1].options.position).toMatchObject({ col: 3, row: 0, sizeX: 3 })
    const [textBox, chartBox] = await Promise.all([0, 1].map((i) => page.locator('[data-edit-widget]').nth(i).boundingBox()))
    expect(chartBox!.x).toBeGreaterThan(textBox!.x + textBox!.width - 1)
    expect(Math.abs(chartBox!.y - textBox!.y)).toBeLessThan(2)

    await page.getByRole('button', { name: `Delete widget ${widgets[0].id}` }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Widget' })
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.locator(`[data-edit-widget="${widgets[0].id}"]`).waitFor({ state: 'detached' })
    expect((await api<BoardJson>('GET', `/api/dashboards/${created.id}`)).widgets.map((w) => w.id)).toEqual([widgets[1].id])
    expect(problems).toEqual([])
  })

  it('edits a text box in place, and asks before dropping typed changes', async () => {
    const b = await board('Text board')
    const { page } = await open(`${b.path}?edit`)
    await page.getByRole('button', { name: `Edit text box ${b.text}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Textbox' })
    await dialog.getByLabel('Text').fill('Changed words')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('alertdialog', { name: 'Quit editing?' }).getByRole('button', { name: 'Cancel' }).click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator(`[data-edit-widget="${b.text}"]`, { hasText: 'Changed words' }).waitFor()
    expect((await api<BoardJson>('GET', `/api/dashboards/${b.id}`)).widgets.find((w) => w.id === b.text)?.text).toBe('Changed words')
  })
})

describe('saving', () => {
  /** Drag the text box of `b` one column to the right; resolves once the page shows it has a change to save. */
  async function nudge(page: Page, b: Awaited<ReturnType<typeof board>>) {
    const text = page.locator(`[data-edit-widget="${b.text}"]`)
    const box = (await text.boundingBox())!
    const chartBox = (await page.locator(`[data-edit-widget="${b.chart}"]`).boundingBox())!
    await drag(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, (box.x - chartBox.x) / 2, 0)
    await saveStatus(page).getByText('Saving').waitFor()
  }

  it('says Saving Failed with Retry when a save fails, and Retry saves', async () => {
    const b = await board('Flaky board')
    const { page } = await open(`${b.path}?edit`, { prepare: (context) => context.clock.install() })
    await page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    await page.route('**/api/widgets/*', (route) => route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
      : route.continue())
    await nudge(page, b)
    await page.clock.runFor(2_000)
    await saveStatus(page).getByText('Saving Failed').waitFor()
    await toastWith(page, 'Error saving changes.').waitFor()
    await page.unroute('**/api/widgets/*')
    await page.getByRole('button', { name: 'Retry' }).click()
    await saveStatus(page).getByText('Saved').waitFor()
    expect((await positions(b.id)).get(b.text)).toMatchObject({ col: 3 })
  })

  it('Done Editing saves what waits first, then leaves edit mode', async () => {
    const b = await board('Hasty board')
    const { page } = await open(`${b.path}?edit`)
    await page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    await nudge(page, b)
    await page.getByRole('button', { name: 'Done Editing' }).click()
    await page.waitForURL((url) => !url.searchParams.has('edit'))
    expect((await positions(b.id)).get(b.text)).toMatchObject({ col: 3 })
    // the widget stays where it was put, now on the view grid (once the view page has drawn both)
    await expect.poll(() => page.locator('[data-widget-id]').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2)
    const [chart, text] = await page.locator('[data-widget-id]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    expect(text.left).toBeGreaterThan(chart.right + 10)
  })

  it('asks before the page is left with a change not yet saved', async () => {
    const b = await board('Unsaved board')
    const { page } = await open(`${b.path}?edit`)
    await page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    await nudge(page, b)
    const dialog = page.waitForEvent('dialog')
    await page.close({ runBeforeUnload: true })
    expect((await dialog).type()).toBe('beforeunload')
    await (await dialog).dismiss()
  })

  it('a change someone else made first is refused with the message that stays, and a lost right with its own', async () => {
    const b = await board('Contested board')
    const opened = await suite.newPage()
    await opened.page.clock.install()
    await opened.page.goto(`${suite.server.url}${b.path}`)
    await waitForIslands(opened.page)
    await api('POST', `/api/dashboards/${b.id}`, { name: 'Changed elsewhere' })
    await more(opened.page)
    await opened.page.getByRole('menuitem', { name: 'Unpublish' }).click()
    const conflict = toastWith(opened.page, 'It seems like the dashboard has been modified by another user.')
    await conflict.getByText('Please copy/backup your changes and reload this page.').waitFor()
    await opened.page.clock.runFor(60_000)
    expect(await conflict.isVisible()).toBe(true)

    const memberId = (await api<{ results: { id: number; email: string }[] }>('GET', '/api/users?q=max')).results.find((u) => u.email === MEMBER.email)!.id
    await api('POST', `/api/dashboards/${b.id}/acl`, { access_type: 'modify', user_id: memberId })
    const { page } = await open(b.path, { as: member })
    await api('DELETE', `/api/dashboards/${b.id}/acl`, { access_type: 'modify', user_id: memberId })
    await more(page)
    await page.getByRole('menuitem', { name: 'Unpublish' }).click()
    await toastWith(page, 'Dashboard update failed').getByText('Permission Denied.').waitFor()
  })
})

describe('the header', () => {
  it('renames in place, publishes and unpublishes, favourites, tags, archives and unarchives, and forks', async () => {
    const b = await board('Header board', { draft: true })
    const { page, problems } = await open(`${b.path}?edit`)
    await page.getByRole('heading', { level: 1 }).getByRole('button', { name: 'Header board' }).click()
    await page.getByRole('textbox', { name: 'Dashboard name' }).fill('Renamed board')
    await page.getByRole('textbox', { name: 'Dashboard name' }).press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Renamed board' }).waitFor()
    await page.getByRole('button', { name: 'Done Editing' }).click()

    const mark = page.locator('[data-dashboard-header]').getByText('Unpublished', { exact: true })
    await page.getByRole('button', { name: 'Publish' }).click()
    await mark.waitFor({ state: 'detached' })
    await more(page)
    await page.getByRole('menuitem', { name: 'Unpublish' }).click()
    await mark.waitFor()
    await page.getByRole('button', { name: 'Publish' }).click()
    await mark.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Favorite' }).click()
    await page.getByRole('button', { name: 'Favorite', pressed: true }).waitFor()

    // the dialog suggests the tags other dashboards carry, not the queries'
    const tagged = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Tagged elsewhere' })
    await api('POST', `/api/dashboards/${tagged.id}`, { is_draft: false, tags: ['finance'] })
    await page.getByRole('button', { name: '+ Add tags' }).click()
    const tags = page.getByRole('dialog', { name: 'Add/Edit Tags' })
    await tags.getByRole('button', { name: '+ finance' }).waitFor()
    await tags.getByLabel('Tags').fill('ops, weekly, ops')
    await tags.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'weekly' }).waitFor()

    const saved = await api<BoardJson>('GET', `/api/dashboards/${b.id}`)
    expect(saved).toMatchObject({ name: 'Renamed board', is_draft: false, tags: ['ops', 'weekly'] })
    const favorites = await api<{ results: { id: number }[] }>('GET', '/api/dashboards/favorites')
    expect(favorites.results.map((d) => d.id)).toContain(b.id)

    await more(page)
    await page.getByRole('menuitem', { name: 'Archive' }).click()
    await page.getByRole('alertdialog', { name: 'Archive Dashboard' }).getByRole('button', { name: 'Archive' }).click()
    await page.locator('[data-dashboard-header]').getByText('Archived', { exact: true }).waitFor()
    expect((await api<BoardJson>('GET', `/api/dashboards/${b.id}`)).is_archived).toBe(true)
    await page.getByRole('button', { name: 'Unarchive' }).click()
    await page.locator('[data-dashboard-header]').getByText('Archived', { exact: true }).waitFor({ state: 'detached' })
    expect((await api<BoardJson>('GET', `/api/dashboards/${b.id}`)).is_archived).toBe(false)

    await more(page)
    await page.getByRole('menuitem', { name: 'Fork' }).click()
    await page.waitForURL(/\/dashboards\/\d+-copy-of-/)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Copy of (#${b.id}) Renamed board`)
    expect(problems).toEqual([])
  })

  it('forks for a member without the charts they may not see, and the copy says how many were left out', async () => {
    const b = await board('Vault board')
    const vault = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Vault', type: 'pg', options: warehouseOptions(suite.server) })).id
    const groups = await api<{ id: number; name: string }[]>('GET', '/api/groups')
    await api('DELETE', `/api/groups/${groups.find((g) => g.name === 'default')!.id}/data_sources/${vault}`)
    const secret = await api<{ visualizations: { id: number }[] }>('POST', '/api/queries', { data_source_id: vault, name: 'Vault rows', query: 'select 1' })
    await api('POST', '/api/widgets', { dashboard_id: b.id, visualization_id: secret.visualizations[0].id, options: { position: { col: 4, row: 0, sizeX: 2, sizeY: 5 } } })
    const { page, problems } = await open(b.path, { as: member })
    await more(page)
    await page.getByRole('menuitem', { name: 'Fork' }).click()
    await page.waitForURL(/\/dashboards\/\d+-copy-of-/)
    await page.getByRole('status').getByText("1 widget was left out of the copy: its query uses a data source you don't have access to.").waitFor()
    expect(await page.locator('[data-widget-id]').count()).toBe(2)
    // said once: the next visit of the copy has no notice
    await page.reload()
    await waitForIslands(page)
    expect(await page.getByText('left out of the copy').count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('refreshes on demand and on the chosen interval, kept in the address, and goes fullscreen', async () => {
    const b = await board('Wall board')
    const opened = await suite.newPage()
    const { page } = opened
    // the page's clock moves only when told, so "every minute" is the page's own count
    await page.clock.install()
    await page.goto(`${suite.server.url}${b.path}?refresh=10`)
    await waitForIslands(page)
    // below the shortest interval offered: the address says what actually runs
    await page.waitForURL((url) => url.searchParams.get('refresh') === '60')
    await page.evaluate(() => {
      const seen: number[] = ((window as unknown as { refreshes: number[] }).refreshes = [])
      window.addEventListener('sightline:dashboard-refresh', (e) => seen.push((e as CustomEvent<{ maxAge: number }>).detail.maxAge))
    })
    const refreshes = () => page.evaluate(() => (window as unknown as { refreshes: number[] }).refreshes)
    await page.getByRole('button', { name: 'Refresh, auto-refreshing every 1 minute', exact: true }).click()
    expect(await refreshes()).toEqual([0])

    await page.getByRole('button', { name: 'Auto-refresh', exact: true }).click()
    await page.getByRole('menuitemradio', { name: 'Every 5 minutes' }).click()
    await page.waitForURL((url) => url.searchParams.get('refresh') === '300')
    await page.clock.runFor(299_000)
    expect(await refreshes()).toEqual([0])
    await page.clock.runFor(1_000)
    expect(await refreshes()).toEqual([0, 300])

    await page.getByRole('button', { name: 'Auto-refresh', exact: true }).click()
    await page.getByRole('menuitemradio', { name: 'Off' }).click()
    await page.waitForURL((url) => !url.searchParams.has('refresh'))
    await page.clock.runFor(600_000)
    expect(await refreshes()).toEqual([0, 300])

    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Fullscreen' }).click()
    await page.waitForURL((url) => url.searchParams.has('fullscreen'))
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' })
  })
})

describe('rights', () => {
  it('a member who may not edit sees no editing controls and gets no edit mode from the address', async () => {
    const b = await board('Read-only board', { draft: true })
    await api('POST', `/api/dashboards/${b.id}`, { is_draft: false })
    const { page } = await open(`${b.path}?edit`, { as: member })
    await settled(page)
    for (const name of ['Publish', 'Done Editing', 'Add Widget', '+ Add tags']) expect(await page.getByRole('button', { name }).count()).toBe(0)
    expect(await page.locator('[data-dashboard-edit]').count()).toBe(0)
    await more(page)
    const items = await page.getByRole('menuitem').allTextContents()
    expect(items).not.toContain('Edit')
    expect(items).not.toContain('Archive')
    expect(items).not.toContain('Manage Permissions')
  })

  it('Manage Permissions grants a member, who then can edit', async () => {
    await api('POST', '/api/settings/organization', { feature_show_permissions_control: true })
    const b = await board('Shared board')
    const { page } = await open(b.path)
    await more(page)
    await page.getByRole('menuitem', { name: 'Manage Permissions' }).click()
    const dialog = page.getByRole('dialog', { name: 'Manage Permissions' })
    await dialog.getByText('Owner').waitFor()
    await dialog.getByLabel('Add a user').fill('Max')
    await dialog.getByRole('button', { name: `Add ${MEMBER.name}` }).click()
    await dialog.getByRole('button', { name: `Remove ${MEMBER.name}` }).waitFor()

    const asMember = await open(b.path, { as: member })
    await more(asMember.page)
    await asMember.page.getByRole('menuitem', { name: 'Edit' }).click()
    await asMember.page.locator(`[data-edit-widget="${b.chart}"]`).waitFor()
    await api('POST', '/api/settings/organization', { feature_show_permissions_control: false })
  })
})

describe('looks', () => {
  it('edit mode reads well and fits, on a desk and on a phone', async () => {
    const b = await board('Looks board')
    const desk = await open(`${b.path}?edit`, { viewport: DESKTOP })
    await desk.page.locator(`[data-edit-widget="${b.chart}"]`).waitFor()
    expect(await seriousA11yViolations(desk.page)).toEqual([])
    expect(await layoutProblems(desk.page, { scope: 'main *', skip: '[data-widget-id] *, .react-grid-item' })).toEqual([])

    const phone = await open(`${b.path}?edit`, { viewport: PHONE })
    await phone.page.locator(`[data-edit-widget="${b.text}"]`).waitFor()
    const boxes = await phone.page.locator('[data-edit-widget]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))
    // one column: each widget below the one before, as wide as the page allows
    expect(boxes[1].top).toBeGreaterThan(boxes[0].bottom - 1)
    expect(Math.abs(boxes[0].width - boxes[1].width)).toBeLessThan(2)
    expect(await seriousA11yViolations(phone.page)).toEqual([])
    // the grid animates its items to the width it measured: the layout is checked once they have come to rest
    await expect.poll(() => layoutProblems(phone.page, { scope: 'main *', skip: '[data-widget-id] *, .react-grid-item' })).toEqual([])
  })

  it('the view page loads no edit-mode code', async () => {
    const b = await board('Light board')
    const { page, scripts } = await open(b.path)
    await settled(page)
    expect(scripts.some((s) => /EditMode|react-grid/i.test(s))).toBe(false)
  })
})
