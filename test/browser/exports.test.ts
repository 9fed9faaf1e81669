import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, jobEnd, settled, warehouseOptions } from './support.ts'

/**
 * Export in a real browser: the dashboard's More menu offers the dashboard as PDF and PNG, a chart widget's menu the
 * chart as PNG, each a plain link to the server's drawing that carries the values the page shows.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
let board = ''
let boardId = 0
let chart = 0

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const q = await api<{ id: number }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Regions', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
  })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  chart = (await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })).id
  const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Exported' })
  await api('POST', '/api/widgets', { dashboard_id: created.id, visualization_id: chart, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } } })
  await api('POST', `/api/dashboards/${created.id}`, { is_draft: false })
  boardId = created.id
  board = `/dashboards/${created.id}-${created.slug}`
}, 120_000)

describe('the menus', () => {
  it('offer the dashboard as PDF and PNG, and a chart as PNG, as links the server answers', async () => {
    const { page, context } = await suite.open(`${board}?region=North`)
    await page.getByRole('button', { name: 'More actions' }).click()
    const pdf = page.getByRole('menuitem', { name: 'Export as PDF' })
    const png = page.getByRole('menuitem', { name: 'Export as PNG' })
    expect(await pdf.getAttribute('href')).toBe(`/api/dashboards/${boardId}/export.pdf?region=North`)
    expect(await png.getAttribute('href')).toBe(`/api/dashboards/${boardId}/export.png?region=North`)
    await page.keyboard.press('Escape')
    await settled(page)
    const card = page.locator('article[data-widget-id]').first()
    await card.getByRole('button', { name: /^Actions for / }).click()
    const picture = page.getByRole('menuitem', { name: 'Export as PNG' })
    expect(await picture.getAttribute('href')).toBe(`/api/visualizations/${chart}/export.png`)
    // the links work with the page's session
    for (const [href, type] of [[`/api/dashboards/${boardId}/export.pdf?region=North`, 'application/pdf'], [`/api/visualizations/${chart}/export.png`, 'image/png']]) {
      const res = await context.request.get(suite.server.url + href)
      expect(res.status()).toBe(200)
      expect(res.headers()['content-type']).toBe(type)
    }
  })
})
