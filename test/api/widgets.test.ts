import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * Widgets (spec 2 §7 "Widgets"; reference §7.2 and `redash-dashboards-alerts.md` §1.1): charts and text boxes added,
 * moved and removed by those who may edit the dashboard, in the three answer shapes, and never a word of a query the
 * viewer may not see.
 */
let f: QueryFixture
let dashboard: number
let chartViz: number
let queryId: number
beforeAll(async () => {
  f = await queryFixture()
  const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 42 as answer', name: 'The answer' })
  queryId = q.id
  chartViz = (q.visualizations as { id: number }[])[0].id
  dashboard = (await json(f.bo.post('/api/dashboards', { name: 'Board' }))).id
})
afterAll(() => f.t.close())

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const addChart = (client: Client, options: Record<string, unknown> = {}, visualization = chartViz, to = dashboard) =>
  client.post('/api/widgets', { dashboard_id: to, visualization_id: visualization, text: '', width: 1, options })
const widgetsOf = async (client: Client, id = dashboard) => (await json(client.get(`/api/dashboards/${id}`))).widgets

describe('adding', () => {
  it('adds a chart with its visualization and query, placed at the lowest free position', async () => {
    const first = await json(addChart(f.bo, { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } }))
    expect(first).toMatchObject({
      width: 1, dashboard_id: dashboard, text: '',
      options: { isHidden: false, position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } },
      visualization: { id: chartViz, type: 'TABLE', query: { id: queryId, name: 'The answer', query: 'select 42 as answer', is_safe: true } },
    })
    expect(first.visualization).not.toHaveProperty('query_id')
    expect(first.visualization.query.user).toMatchObject({ id: f.ids.bo })
    const second = await json(addChart(f.bo))
    expect(second.options.position).toMatchObject({ col: 3, row: 0, sizeX: 3, sizeY: 8 })
    const third = await json(addChart(f.bo))
    expect(third.options.position).toMatchObject({ col: 0, row: 8 })
  })

  it('adds a text box: no visualization key, the markdown in text', async () => {
    const text = await json(f.bo.post('/api/widgets', { dashboard_id: dashboard, visualization_id: null, text: '## Notes', options: {} }))
    expect(text.text).toBe('## Notes')
    expect(text).not.toHaveProperty('visualization')
    expect(Object.keys(text).sort()).toEqual(['created_at', 'dashboard_id', 'id', 'options', 'text', 'updated_at', 'width'])
  })

  it('refuses widgets that break the rules with a 4xx and a message', async () => {
    expect(await refusal(addChart(f.bo, {}, 999_999))).toEqual([404, 'Visualization not found.'])
    expect((await refusal(f.bo.post('/api/widgets', { visualization_id: chartViz })))[0]).toBe(400)
    expect((await refusal(addChart(f.bo, {}, chartViz, 999_999)))[0]).toBe(404)
    expect((await refusal(addChart(f.bo, { position: { col: 5, sizeX: 3 } })))).toEqual([400, 'options.position: A widget must fit in the 6 columns of the grid.'])
    expect((await refusal(addChart(f.bo, { position: { col: -1 } })))[0]).toBe(400)
    expect((await refusal(addChart(f.bo, { position: { sizeY: 5000 } })))[0]).toBe(400)
    expect((await refusal(addChart(f.bo, { position: 'top' })))[0]).toBe(400)
    const huge = await refusal(f.bo.post('/api/widgets', { dashboard_id: dashboard, visualization_id: null, text: 'x'.repeat(100_001) }))
    expect(huge).toEqual([400, 'Text is too long (at most 100,000 characters).'])
  })

  it('refuses a chart of an archived query (400) and of a query the caller cannot see (403)', async () => {
    const old = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1', name: 'Old' })
    await json(f.bo.request('DELETE', `/api/queries/${old.id}`))
    const oldViz = (old.visualizations as { id: number }[])[0].id
    expect((await refusal(addChart(f.bo, {}, oldViz)))[0]).toBe(400)
    const hidden = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 2', name: 'Hidden' })
    const hiddenViz = (hidden.visualizations as { id: number }[])[0].id
    expect(await refusal(addChart(f.bo, {}, hiddenViz))).toEqual([403, "You don't have access to this visualization's query."])
  })

  it('lets only those who may edit the dashboard add, change and remove widgets', async () => {
    expect(await refusal(addChart(f.cleo))).toEqual([403, "You don't have permission to edit this dashboard."])
    const w = await json(addChart(f.bo))
    expect((await refusal(f.cleo.post(`/api/widgets/${w.id}`, { options: {} })))[0]).toBe(403)
    expect((await refusal(f.cleo.request('DELETE', `/api/widgets/${w.id}`)))[0]).toBe(403)
    expect((await f.t.app.request(`/api/widgets/${w.id}`, { method: 'DELETE' })).status).toBe(401)
    await json(f.bo.post(`/api/dashboards/${dashboard}/acl`, { access_type: 'modify', user_id: f.ids.cleo }))
    const moved = await json(f.cleo.post(`/api/widgets/${w.id}`, { text: '', options: { position: { col: 3, row: 0, sizeX: 3, sizeY: 4 } } }))
    expect(moved.options.position).toEqual({ col: 3, row: 0, sizeX: 3, sizeY: 4 })
    await json(f.cleo.request('DELETE', `/api/widgets/${w.id}`))
    expect((await widgetsOf(f.bo)).map((x: { id: number }) => x.id)).not.toContain(w.id)
    expect((await f.bo.post(`/api/widgets/${w.id}`, { options: {} })).status).toBe(404)
  })
})

describe('what viewers see', () => {
  it('shows a widget whose query the viewer may not see as exactly seven keys, with no SQL, rows or key', async () => {
    const secret = await newQuery(f.admin, { data_source_id: f.shared, query: 'select salary from payroll', name: 'Payroll' })
    const board = (await json(f.admin.post('/api/dashboards', { name: 'Mixed' }))).id
    await json(addChart(f.admin, {}, (secret.visualizations as { id: number }[])[0].id, board))
    await json(addChart(f.admin, {}, chartViz, board))
    const [restricted, visible] = await widgetsOf(f.cleo, board)
    expect(Object.keys(restricted).sort()).toEqual(['created_at', 'dashboard_id', 'id', 'options', 'restricted', 'updated_at', 'width'])
    expect(JSON.stringify(restricted)).not.toMatch(/payroll|salary/i)
    expect(visible.visualization.query.id).toBe(queryId)
    // vi has the shared source view-only: she sees both
    const forVi = await widgetsOf(f.vi, board)
    expect(forVi[0].visualization.query.name).toBe('Payroll')
  })

  it('removes a query\'s widgets from every dashboard when the query is archived', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 3', name: 'Short lived' })
    const board = (await json(f.bo.post('/api/dashboards', { name: 'Holder' }))).id
    await json(addChart(f.bo, {}, (q.visualizations as { id: number }[])[0].id, board))
    expect(await widgetsOf(f.bo, board)).toHaveLength(1)
    await json(f.bo.request('DELETE', `/api/queries/${q.id}`))
    expect(await widgetsOf(f.bo, board)).toEqual([])
  })
})
