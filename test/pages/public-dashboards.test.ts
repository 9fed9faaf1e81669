import { beforeAll, describe, expect, it } from 'vitest'
import { warehouseOptions } from '../helpers/web-session.ts'
import { pageSuite } from './support.ts'

/** A public dashboard as the server draws it for a stranger: the charts are in the HTML, and with nothing to interact with, no script. */
const suite = pageSuite({ role: 'all' }) // a worker too, so the query runs to a stored result
const { api } = suite
let bareId = 0

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const regions = await api<{ id: number }>('POST', '/api/queries', { data_source_id: warehouse, name: 'Regions', query: "select * from (values ('North', 12), ('South', 30)) as t(region, orders)" })
  await suite.run(regions.id)
  const bars = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: regions.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })
  const bare = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Bare Board' })
  await api('POST', '/api/widgets', { dashboard_id: bare.id, visualization_id: bars.id, options: { parameterMappings: {}, position: { col: 0, row: 0, sizeX: 3, sizeY: 6 } } })
  await api('POST', `/api/dashboards/${bare.id}`, { is_draft: false })
  bareId = bare.id
}, 120_000)

describe('sharing a dashboard', () => {
  it('shows the charts without script, and a dashboard with nothing to interact with loads no script', async () => {
    const { api_key: token } = await api<{ api_key: string }>('POST', `/api/dashboards/${bareId}/share`)
    const { status, document, scripts } = await suite.get(`/public/dashboards/${token}`, null)
    expect(status).toBe(200)
    expect(document.querySelectorAll('article[data-widget-id] svg').length).toBeGreaterThan(0)
    expect(scripts).toEqual([])
  })
})
