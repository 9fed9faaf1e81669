import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, jobEnd, settled, warehouseOptions } from './support.ts'

/**
 * A public dashboard end to end: the owner shares it from the header's Share dialog and copies the address; a browser
 * with no cookies opens it and sees the charts, changes a parameter and sees the new result; the owner turns sharing
 * off and the address is the 404 page. (That the charts show without script, and a dashboard with nothing to interact
 * with loads no script at all, is checked on the server's HTML: test/pages/public-dashboards.test.ts.)
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
let boardPath = ''
const filterBoards = { card: 0, merged: 0 }

type Query = { id: number; visualizations: { id: number }[] }

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const newQuery = (name: string, query: string, parameters: unknown[] = []) =>
    api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query, options: { parameters } })
  const chartOf = (q: Query, name: string, x: string, y: string) =>
    api<{ id: number }>('POST', '/api/visualizations', { query_id: q.id, type: 'CHART', name, options: { globalSeriesType: 'column', columnMapping: { [x]: 'x', [y]: 'y' } } })
  const regions = await newQuery('Regions', "select * from (values ('North', 12), ('South', 30)) as t(region, orders)")
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${regions.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const bars = await chartOf(regions, 'Bars', 'region', 'orders')
  const scaled = await newQuery('Scaled', 'select {{ factor }} * 7 as scaled', [{ name: 'factor', title: 'Factor', type: 'number', value: 2 }])

  const add = async (dashboard: number, visualization: number, col: number, parameterMappings: Record<string, unknown> = {}) =>
    api('POST', '/api/widgets', { dashboard_id: dashboard, visualization_id: visualization, options: { parameterMappings, position: { col, row: 0, sizeX: 3, sizeY: 6 } } })
  const d = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Open Board' })
  await add(d.id, bars.id, 0)
  await add(d.id, scaled.visualizations[0].id, 3, { factor: { name: 'factor', type: 'dashboard-level', mapTo: 'factor', value: null, title: 'Factor' } })
  await api('POST', `/api/dashboards/${d.id}`, { is_draft: false })
  boardPath = `/dashboards/${d.id}-${d.slug}`

  // result filters: on a widget's card, and merged into the dashboard's panel
  const orders = await newQuery('Orders', `select * from (values ('South', 'order-s1'), ('North', 'order-n1'), ('North', 'order-n2')) as t("region::filter", item)`)
  const ordersRun = await api<{ job?: { id: string } }>('POST', `/api/queries/${orders.id}/results`, { max_age: 0 })
  if (ordersRun.job) expect(await jobEnd(suite, ordersRun.job)).toMatchObject({ status: 3 })
  for (const [kind, merged] of [['card', false], ['merged', true]] as const) {
    const board = await api<{ id: number }>('POST', '/api/dashboards', { name: `Filtered ${kind}` })
    await add(board.id, orders.visualizations[0].id, 0)
    await api('POST', `/api/dashboards/${board.id}`, { is_draft: false, dashboard_filters_enabled: merged })
    filterBoards[kind] = board.id
  }
}, 120_000)

describe('sharing a dashboard', () => {
  it('shares from the dialog, works for a stranger with parameters, and is 404 once unshared', async () => {
    const owner = await suite.open(boardPath, { prepare: (context) => context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url }) })
    await owner.page.getByRole('button', { name: 'Share' }).click()
    const dialog = owner.page.getByRole('dialog', { name: 'Share Dashboard' })
    await dialog.getByRole('switch', { name: 'Allow public access' }).click()
    const address = dialog.getByLabel('Secret address')
    await expect.poll(() => address.inputValue(), { timeout: 30_000 }).toMatch(/\/public\/dashboards\/[A-Za-z0-9]{40}$/)
    const url = await address.inputValue()
    await dialog.getByRole('button', { name: 'Copy' }).click()
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor()
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(url)
    // reset after 2 s, by the page's own clock
    await dialog.getByRole('button', { name: 'Copy', exact: true }).waitFor()

    const stranger = await suite.newPage({ as: null, viewport: DESKTOP })
    const calls: string[] = []
    stranger.page.on('request', (r) => r.url().includes('/api/') && calls.push(`${r.method()} ${new URL(r.url()).pathname} ${r.headers().authorization ? 'key' : 'none'} ${r.headers().cookie ? 'cookie' : ''}`))
    await stranger.page.goto(url)
    await stranger.page.getByRole('heading', { name: 'Open Board', level: 1 }).waitFor()
    const bars = stranger.page.locator('article[data-widget-id]', { has: stranger.page.getByRole('heading', { name: /Regions/ }) })
    await bars.locator('svg').first().waitFor()
    // no menu, no refresh, no editing
    expect(await stranger.page.getByRole('button', { name: /Refresh|Share|Edit/ }).count()).toBe(0)
    const scaled = stranger.page.locator('article[data-widget-id]', { has: stranger.page.getByRole('heading', { name: /Scaled/ }) })
    await scaled.getByRole('cell', { name: '14', exact: true }).waitFor()
    const panel = stranger.page.getByRole('region', { name: 'Dashboard parameters' })
    await panel.getByLabel('Factor').fill('3')
    await panel.getByRole('button', { name: /^Apply/ }).click()
    await scaled.getByRole('cell', { name: '21', exact: true }).waitFor()
    expect(stranger.page.url()).toContain('p_factor=3')
    // Apply is a history entry: back brings the earlier value back (without the dashboard's router)
    await stranger.page.goBack()
    await scaled.getByRole('cell', { name: '14', exact: true }).waitFor()
    expect(stranger.page.url()).not.toContain('p_factor=3')
    await settled(stranger.page)
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.every((c) => c.includes(' key') && !c.includes('cookie')), calls.join('\n')).toBe(true)
    expect(stranger.problems).toEqual([])

    await dialog.getByRole('switch', { name: 'Allow public access' }).click()
    await dialog.getByText('Public access is off: the address no longer works.').waitFor()
    const late = await suite.newPage({ as: null })
    const res = await late.page.goto(url)
    expect(res?.status()).toBe(404)
    await late.page.getByText('404').waitFor()
  })

  it("filters a widget's rows from its card and from the dashboard's panel, for a stranger", async () => {
    for (const kind of ['card', 'merged'] as const) {
      const { api_key: token } = await api<{ api_key: string }>('POST', `/api/dashboards/${filterBoards[kind]}/share`)
      const stranger = await suite.open(`/public/dashboards/${token}`, { as: null })
      const card = stranger.page.locator('article[data-widget-id]', { has: stranger.page.getByRole('heading', { name: /Orders/ }) })
      await card.getByText('order-s1', { exact: true }).waitFor()
      expect(await card.getByText('order-n1', { exact: true }).count()).toBe(0)
      const panel = kind === 'card' ? card.getByRole('group', { name: /^Filters of / }) : stranger.page.getByRole('region', { name: 'Filters' })
      await panel.getByLabel('region').selectOption('North')
      await card.locator('[data-drawn-by="redrawn"]').getByText('order-n2', { exact: true }).waitFor()
      expect(await card.getByText('order-s1', { exact: true }).count()).toBe(0)
      expect(stranger.problems).toEqual([])
    }
  })
})
