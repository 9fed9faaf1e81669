import { beforeAll, describe, expect, it } from 'vitest'
import { warehouseOptions } from '../helpers/web-session.ts'
import { pageSuite, withText } from './support.ts'

/**
 * A dashboard as the server draws it, before any script runs: its charts, tables and text are in the HTML itself,
 * and nothing that needs script to work (a widget's actions menu) is offered yet.
 */
const suite = pageSuite({ role: 'all' }) // a worker too, so the queries run to stored results
const { api } = suite
let warehouse: number
const boards = { regional: '', widgets: '' }

type Query = { id: number; visualizations: { id: number }[] }
const newQuery = (name: string, query: string) => api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query })
const barsOf = (query: Query, x: string, y: string) => api<{ id: number }>('POST', '/api/visualizations', {
  query_id: query.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { [x]: 'x', [y]: 'y' } },
})
async function newBoard(name: string, widgets: { visualization: number | null; text?: string; col: number; row: number; sizeX: number; sizeY: number }[]) {
  const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
  for (const w of widgets) {
    await api('POST', '/api/widgets', {
      dashboard_id: board.id, visualization_id: w.visualization, ...(w.text ? { text: w.text } : {}),
      options: { position: { col: w.col, row: w.row, sizeX: w.sizeX, sizeY: w.sizeY } },
    })
  }
  await api('POST', `/api/dashboards/${board.id}`, { is_draft: false })
  return `/dashboards/${board.id}-${board.slug}`
}
/** A widget's card, by the name of its query (as its heading says). */
const widget = (document: Document, queryName: string) =>
  [...document.querySelectorAll('article[data-widget-id]')].find((card) => withText(card, 'h1, h2, h3, h4, h5, h6', queryName).length)!

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id

  const orders = await newQuery('Orders by region', "select * from (values ('North', 120), ('South', 80), ('West', 45)) as t(region, orders)")
  const ordersChart = await barsOf(orders, 'region', 'orders')
  await suite.run(orders.id)
  boards.regional = await newBoard('Regional orders', [
    { visualization: ordersChart.id, col: 0, row: 0, sizeX: 4, sizeY: 8 },
    { visualization: orders.visualizations[0].id, col: 4, row: 0, sizeX: 2, sizeY: 8 },
    { visualization: null, text: '**Figures** are from the warehouse.', col: 0, row: 8, sizeX: 6, sizeY: 2 },
  ])

  await suite.server.db.sql`create table widget_numbers (label text, value int)`
  await suite.server.db.sql`insert into widget_numbers values ('Total', 100)`
  const numbers = await newQuery('Numbers', 'select label, value from widget_numbers')
  const regions = await newQuery('Regions', "select * from (values ('North', 120), ('South', 80)) as t(region, orders)")
  const far = await newQuery('Far away', "select 'deep' as place, 1 as n")
  for (const q of [numbers, regions, far]) await suite.run(q.id)
  const failing = await newQuery('Broken', 'select * from no_such_table_here')
  boards.widgets = await newBoard('Widgets at work', [
    { visualization: (await barsOf(regions, 'region', 'orders')).id, col: 0, row: 0, sizeX: 4, sizeY: 8 },
    { visualization: numbers.visualizations[0].id, col: 4, row: 0, sizeX: 2, sizeY: 8 },
    { visualization: failing.visualizations[0].id, col: 0, row: 8, sizeX: 3, sizeY: 6 },
    { visualization: far.visualizations[0].id, col: 0, row: 60, sizeX: 3, sizeY: 6 },
  ])
}, 120_000)

describe('a dashboard before any script runs', () => {
  it('shows its charts, table and text', async () => {
    const { status, document } = await suite.get(boards.regional)
    expect(status).toBe(200)
    expect([...document.querySelectorAll('h1')].map((h) => h.textContent?.trim())).toContain('Regional orders')
    expect(document.querySelectorAll('[data-widget-id] svg').length).toBeGreaterThan(0)
    const cells = [...document.querySelectorAll('[data-widget-id] table *')].map((el) => el.textContent?.trim())
    for (const value of ['North', 'South', 'West']) expect(cells, value).toContain(value)
    expect(withText(document, '[data-widget-id] strong', 'Figures')).toHaveLength(1)
  })

  it('shows the chart widget drawn by the server, the table widget\'s rows, and no actions menu yet', async () => {
    const { document } = await suite.get(boards.widgets)
    expect(widget(document, 'Regions').querySelectorAll('svg').length).toBeGreaterThan(0)
    expect([...widget(document, 'Numbers').querySelectorAll('*')].filter((el) => el.textContent?.trim() === 'Total' && el.children.length === 0)).toHaveLength(1)
    const actions = [...document.querySelectorAll('button')].filter((b) => /^Actions for /.test(b.getAttribute('aria-label') ?? b.textContent?.trim() ?? ''))
    expect(actions).toEqual([])
  })
})
