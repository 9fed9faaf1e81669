import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { animationsDone, browserSuite, toastWith, waitForIslands } from './support.ts'
import { typeQuery } from './editor.ts'

/**
 * The whole path of a new member, in one browser with one context per person: the admin invites them and adds a
 * webhook destination; the member writes a query on the Demo source with a filter column and a dropdown parameter,
 * makes every kind of visualization, adds a chart to a dashboard, adds a text box and resizes the chart there, shares
 * the dashboard, which a stranger then opens; the member sets an alert that tells the webhook, chosen on its create
 * page, and evaluates it again. Each step is checked as the person doing it would check it: on screen.
 */
const suite = browserSuite({ role: 'all' }) // a worker too: runs, alert evaluations and deliveries happen
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

/** The local server the webhook destination posts to; each delivery it receives settles the next waiter in line. */
let hook: http.Server
let hookUrl = ''
const received: Record<string, unknown>[] = []
const waiters: { count: number; resolve: () => void }[] = []
const deliveries = (count: number) => new Promise<void>((resolve) => {
  if (received.length >= count) resolve()
  else waiters.push({ count, resolve })
})

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.writeHead(200).end('ok')
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve()
    })
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`
})
afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())))

const QUERY = `select region as "region::filter", category, city, latitude, longitude, count(*) as orders, round(sum(revenue)) as revenue
from order_lines where channel = '{{ channel }}'
group by all order by region, category, city`

const gridCell = (page: Page, text: string) => page.locator('[data-results-grid] [role="cell"]', { hasText: text }).first()

/** Add a visualization of `type` (and chart type) through the editor; it must preview and draw without an error. */
async function addVisualization(page: Page, type: string, chartType?: string): Promise<number> {
  const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Add Visualization' }).click()
  await dialog.getByLabel('Visualization Type').selectOption(type)
  if (chartType) await dialog.getByLabel('Chart Type').selectOption(chartType)
  await dialog.locator('[data-preview-output]').waitFor()
  expect(await dialog.locator('[data-preview-error]').count(), `${type} ${chartType ?? ''}`).toBe(0)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await dialog.waitFor({ state: 'detached' })
  // the toast says so; dismissed, as it would sit over the next editor's Save button (on a busy machine it may
  // already have gone by itself: then the click has nothing left to press, and the toast is gone all the same)
  const saved = toastWith(page, 'Visualization saved')
  const dismissed = saved.getByRole('button', { name: 'Dismiss' }).click().catch(() => undefined)
  await Promise.race([dismissed, saved.waitFor({ state: 'detached' })])
  await saved.waitFor({ state: 'detached' })
  const id = Number(new URL(page.url()).hash.slice(1))
  const panel = page.locator(`[data-chart-id="${id}"]`)
  await panel.locator(`[data-chart-output="${id}"]`).waitFor()
  expect(await panel.getByRole('alert').count(), `${type} ${chartType ?? ''} draws`).toBe(0)
  return id
}

describe('a member’s path, from invitation to an alert', () => {
  it('invites, queries, charts, builds and shares a dashboard a stranger opens, and alerts a webhook', async () => {
    // the admin invites the member and adds the team's webhook
    const admin = await suite.open('/users/new')
    const invite = admin.page.getByRole('dialog', { name: 'Create a New User' })
    await invite.getByLabel('Name', { exact: true }).fill('Mia Member')
    await invite.getByLabel('Email').fill('mia@example.com')
    await invite.getByRole('button', { name: 'Create' }).click()
    const link = await invite.getByRole('alert').getByRole('textbox', { name: 'Link' }).inputValue()
    await admin.page.goto(suite.server.url + '/destinations/new')
    await waitForIslands(admin.page)
    const create = admin.page.getByRole('dialog', { name: 'Create a New Alert Destination' })
    await create.getByRole('button', { name: 'Webhook', exact: true }).click()
    await create.getByLabel('Name', { exact: true }).fill('Team hook')
    await create.getByLabel('Url').fill(hookUrl)
    await create.getByRole('button', { name: 'Create' }).click()
    await admin.page.waitForURL(/\/destinations\/\d+$/)
    expect(await admin.page.getByRole('heading', { level: 1 }).textContent()).toBe('Team hook')

    // the member sets a password from the link and is signed in
    const { page, problems } = await suite.newPage({
      as: null,
      // the marker map's default tiles are a third party's: answered here
      prepare: (context) => context.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG })),
    })
    await page.goto(link)
    await page.getByLabel('New Password', { exact: true }).fill('mia password')
    await page.getByLabel('Repeat New Password', { exact: true }).fill('mia password')
    await page.getByRole('button', { name: 'Set Password' }).click()
    await page.waitForURL(suite.server.url + '/')
    await page.getByRole('navigation', { name: 'Main' }).getByLabel('Account: Mia Member').waitFor()

    // a new query on the Demo source, with a dropdown parameter and a filter column
    await page.goto(suite.server.url + '/queries/new')
    await page.locator('.cm-content').waitFor()
    expect(await page.getByLabel('Data source').locator('option:checked').textContent()).toBe('Demo')
    await typeQuery(page, 'select ')
    await page.getByRole('button', { name: 'Add New Parameter' }).click()
    const parameter = page.getByRole('dialog', { name: 'Add Parameter' })
    await parameter.getByLabel('Keyword').fill('channel')
    await parameter.getByLabel('Title').fill('Channel')
    await parameter.getByLabel('Type').selectOption('enum')
    await parameter.getByLabel('Values', { exact: true }).fill('web\nmobile\nstore')
    await parameter.getByRole('button', { name: 'Add Parameter', exact: true }).click()
    await parameter.waitFor({ state: 'detached' })
    await typeQuery(page, QUERY)
    expect(await page.getByLabel('Channel', { exact: true }).inputValue()).toBe('web')
    await page.getByRole('button', { name: 'Execute' }).click()
    const filters = page.getByRole('region', { name: 'Filters' })
    const region = filters.getByLabel('region', { exact: true })
    await region.waitFor()
    // the first row's region is the one shown, and the control says so; the header names the column plainly
    expect(await region.inputValue()).toBe('Asia Pacific')
    await gridCell(page, 'Tokyo').waitFor()
    expect(await gridCell(page, 'London').count()).toBe(0)
    expect(await page.getByRole('columnheader', { name: /region::filter/ }).count()).toBe(0)
    await region.selectOption('Europe')
    await gridCell(page, 'London').waitFor()
    expect(await gridCell(page, 'Tokyo').count()).toBe(0)
    await page.keyboard.press('Control+s')
    await page.waitForURL(/\/queries\/\d+\/source$/)
    const queryId = Number(/\/queries\/(\d+)\/source/.exec(page.url())![1])
    const name = page.getByRole('textbox', { name: 'Query name' })
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type('Orders by city')
    await page.keyboard.press('Enter')
    await toastWith(page, 'Query saved and published').waitFor()

    // every kind of visualization, from the query page
    await page.goto(`${suite.server.url}/queries/${queryId}`)
    await waitForIslands(page)
    expect(await page.getByLabel('Channel', { exact: true }).inputValue()).toBe('web')
    await gridCell(page, 'Tokyo').waitFor()
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    await page.getByRole('dialog', { name: 'Visualization Editor' }).getByLabel('Chart Type').waitFor()
    const kinds = await page.getByRole('dialog', { name: 'Visualization Editor' }).getByLabel('Visualization Type').locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
    const chartTypes = await page.getByRole('dialog', { name: 'Visualization Editor' }).getByLabel('Chart Type').locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
    expect(kinds).toEqual(expect.arrayContaining(['CHART', 'COUNTER', 'PIVOT', 'MAP', 'TABLE']))
    expect(chartTypes).toEqual(expect.arrayContaining(['column', 'line', 'pie']))
    const charts = new Map<string, number>()
    for (const chartType of chartTypes) charts.set(chartType, await addVisualization(page, 'CHART', chartType))
    // a query starts with its table; every other kind is made once
    for (const kind of kinds.filter((k) => k !== 'CHART' && k !== 'TABLE')) await addVisualization(page, kind)
    const tabs = page.getByRole('tab')
    expect(await tabs.count()).toBe(1 + chartTypes.length + kinds.length - 2)

    // a dashboard, and the column chart added to it from the query page
    await page.goto(suite.server.url + '/dashboards/new')
    const newBoard = page.getByRole('dialog', { name: 'New Dashboard' })
    await newBoard.getByPlaceholder('Dashboard Name').fill('City orders')
    // edit mode opens on the new dashboard, read by its grid
    const editing = page.waitForResponse((r) => r.request().method() === 'GET' && /\/api\/dashboards\/\d+$/.test(r.url()))
    await newBoard.getByPlaceholder('Dashboard Name').press('Enter')
    await page.waitForURL(/\/dashboards\/\d+-city-orders\?edit$/)
    await page.getByRole('button', { name: 'Done Editing' }).waitFor()
    await editing
    const boardPath = new URL(page.url()).pathname
    const column = charts.get('column')!
    await page.goto(`${suite.server.url}/queries/${queryId}#${column}`)
    await page.locator(`[data-chart-output="${column}"]`).waitFor()
    await page.getByRole('button', { name: 'Add to Dashboard' }).click()
    const add = page.getByRole('dialog', { name: 'Add to Dashboard' })
    await add.getByPlaceholder('Search Dashboards...').fill('City')
    await add.getByRole('button', { name: 'City orders', exact: true }).click()
    await add.getByRole('button', { name: 'Add to Dashboard' }).click()
    await add.getByText('Widget added to City orders.').waitFor()
    await add.getByRole('link', { name: 'Open City orders' }).click()
    await page.waitForURL((url) => url.pathname === boardPath)
    const chartCard = page.locator('article[data-widget-id]', { has: page.getByRole('heading', { name: /Orders by city/ }) })
    await chartCard.locator('svg').first().waitFor()
    await chartCard.getByLabel('region', { exact: true }).waitFor()

    // a text box, and the chart made wider and taller by its corner
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Edit' }).click()
    await page.getByRole('button', { name: 'Add Textbox' }).click()
    const textDialog = page.getByRole('dialog', { name: 'Add Textbox' })
    await textDialog.getByLabel('Text').fill('## Weekly *notes*')
    await textDialog.locator('[data-textbox-preview] h2', { hasText: 'Weekly notes' }).waitFor()
    await textDialog.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Widget added to dashboard').waitFor()
    await page.locator('[data-edit-widget] h2', { hasText: 'Weekly notes' }).waitFor()
    const status = page.locator('[data-save-status]')
    await status.getByText('Saved').waitFor()
    const chartWidget = page.locator('[data-edit-widget]').first()
    // the grid slides widgets to their places (a CSS transition): the handle is found where it comes to rest
    await animationsDone(page)
    const before = (await chartWidget.boundingBox())!
    const corner = (await chartWidget.locator('.react-resizable-handle').boundingBox())!
    // the new size is saved: waited on by its request, as the status's "Saving" may come and go between two looks
    const resized = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/widgets\/\d+$/.test(new URL(r.url()).pathname))
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2)
    await page.mouse.down()
    for (let step = 1; step <= 10; step++) await page.mouse.move(corner.x + corner.width / 2 + step * 10, corner.y + corner.height / 2 + step * 10)
    await page.mouse.up()
    expect((await resized).ok()).toBe(true)
    await status.getByText('Saved').waitFor()
    await page.getByRole('button', { name: 'Done Editing' }).click()
    await page.waitForURL((url) => !url.searchParams.has('edit'))
    await page.reload()
    await waitForIslands(page)
    const after = (await chartCard.boundingBox())!
    expect(after.height).toBeGreaterThan(before.height + 50)
    await page.getByRole('heading', { name: 'Weekly notes', level: 2 }).waitFor()

    // published and shared: a stranger opens the secret address and sees the chart and the text
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await page.getByRole('button', { name: 'Publish', exact: true }).waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Share' }).click()
    const share = page.getByRole('dialog', { name: 'Share Dashboard' })
    await share.getByRole('switch', { name: 'Allow public access' }).click()
    const address = share.getByLabel('Secret address')
    await expect.poll(() => address.inputValue()).toMatch(/\/public\/dashboards\/[A-Za-z0-9]{40}$/)
    const publicUrl = await address.inputValue()
    await page.keyboard.press('Escape')
    await share.waitFor({ state: 'detached' })
    const stranger = await suite.newPage({ as: null })
    await stranger.page.goto(publicUrl)
    await stranger.page.getByRole('heading', { name: 'City orders', level: 1 }).waitFor()
    const shown = stranger.page.locator('article[data-widget-id]', { has: stranger.page.getByRole('heading', { name: /Orders by city/ }) })
    await shown.locator('svg').first().waitFor()
    await stranger.page.getByRole('heading', { name: 'Weekly notes', level: 2 }).waitFor()
    expect(stranger.problems).toEqual([])

    // an alert that tells the team's webhook, chosen on the create page
    await page.goto(suite.server.url + '/alerts/new')
    await waitForIslands(page)
    await page.getByPlaceholder('Search Queries...').fill('by city')
    await page.getByRole('button', { name: 'Orders by city' }).click()
    expect(await page.getByLabel('Channel', { exact: true }).inputValue()).toBe('web')
    await page.getByLabel('Value column').selectOption('orders')
    await page.getByLabel('Threshold').fill('0')
    await page.getByLabel('Team hook').check()
    await page.getByRole('button', { name: 'Create Alert' }).click()
    await page.waitForURL(/\/alerts\/\d+$/)
    // its first evaluation follows the run with its own values, and tells the webhook
    await deliveries(1)
    expect(received[0]).toMatchObject({ event: 'alert_state_change', alert: { state: 'triggered' } })
    await page.reload()
    await page.locator('header [data-alert-state="triggered"]').waitFor()
    await page.locator('[data-destinations]').getByText('Team hook').waitFor()
    const targets = () => page.locator('[data-alert-deliveries] tbody tr td:nth-child(2)').allTextContents()
    expect(await targets()).toEqual(['Team hook (webhook)'])

    // Evaluate now runs the query again and tells the webhook again
    await page.getByRole('button', { name: 'Evaluate now' }).click()
    await page.getByText("The query runs now with the alert's parameter values; the alert is evaluated when its result is stored.").waitFor()
    await deliveries(2)
    await page.reload()
    expect(await targets()).toEqual(['Team hook (webhook)', 'Team hook (webhook)'])
    expect(problems).toEqual([])
    expect(admin.problems).toEqual([])
  }, 300_000)
})
