import { beforeAll, describe, expect, it } from 'vitest'
import { warehouseOptions } from '../helpers/web-session.ts'
import { pageSuite } from './support.ts'

/** An embedded chart as the server draws it: the picture is in the HTML, and the page asks for no script at all. */
const suite = pageSuite({ role: 'all' }) // a worker too, so the query runs to a stored result
const { api } = suite
let chart: { id: number; vis: number; key: string }

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const q = await api<{ id: number; api_key: string }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders by region', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
  })
  const v = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, name: 'Orders by region chart', type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })
  chart = { id: q.id, vis: v.id, key: q.api_key }
  await suite.run(q.id)
}, 60_000)

describe('the embed page', () => {
  it('shows the chart without script, and loads none', async () => {
    const { status, document, scripts } = await suite.get(`/embed/query/${chart.id}/visualization/${chart.vis}?api_key=${chart.key}`, null)
    expect(status).toBe(200)
    expect(document.querySelectorAll('[data-embed-output] svg[role="img"]').length).toBeGreaterThan(0)
    expect(scripts).toEqual([])
  })
})
