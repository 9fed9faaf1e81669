import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
let bo: Client
let queryId: number
let tableId: number

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  const ds = await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()
  const query = await (await admin.post('/api/queries', { data_source_id: ds.id, query: 'select 1 as x, 2 as y', name: 'Sales' })).json()
  queryId = query.id
  tableId = query.visualizations[0].id
})
afterAll(() => t.close())

describe('visualizations', () => {
  it('creates a chart with validated options, named after its type by default, shown on the query', async () => {
    const res = await admin.post('/api/visualizations', {
      query_id: queryId, type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { x: 'x', y: 'y' } },
    })
    expect(res.status).toBe(200)
    const vis = await res.json()
    expect(vis).toMatchObject({ query_id: queryId, type: 'CHART', name: 'Chart' })
    expect(vis.options.globalSeriesType).toBe('column')
    const query = await (await admin.get(`/api/queries/${queryId}`)).json()
    expect(query.visualizations.map((v: { type: string }) => v.type)).toEqual(['TABLE', 'CHART'])
  })

  it('refuses unknown types and options it will not draw with 400, and other people\'s queries with 403', async () => {
    const unknown = await admin.post('/api/visualizations', { query_id: queryId, type: 'HOLOGRAM', options: {} })
    expect(unknown.status).toBe(400)
    const malformed = await admin.post('/api/visualizations', { query_id: queryId, type: 'CHART', options: { seriesOptions: { a: { color: 'red;} <script>' } } } })
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).message).toContain('seriesOptions.a.color')
    // a value it does not understand is kept as given (and drawn with the default)
    const kept = await admin.post('/api/visualizations', { query_id: queryId, type: 'CHART', options: { globalSeriesType: 42 } })
    expect((await kept.json()).options.globalSeriesType).toBe(42)
    expect((await admin.post('/api/visualizations', { type: 'CHART' })).status).toBe(400)
    expect((await bo.post('/api/visualizations', { query_id: queryId, type: 'CHART', options: {} })).status).toBe(403)
    expect((await new Client(t.app).post('/api/visualizations', { query_id: queryId, type: 'CHART' })).status).toBe(401)
  })

  it('saves name and options, dropping a table\'s paginationSize', async () => {
    const res = await admin.post(`/api/visualizations/${tableId}`, { name: 'All rows', options: { itemsPerPage: 50, paginationSize: 'small' } })
    expect(res.status).toBe(200)
    const vis = await res.json()
    expect(vis.name).toBe('All rows')
    expect(vis.options).not.toHaveProperty('paginationSize')
    expect((await bo.post(`/api/visualizations/${tableId}`, { name: 'Mine' })).status).toBe(403)
    expect((await admin.post('/api/visualizations/999999', { name: 'x' })).status).toBe(404)
  })

  it('deletes any visualization but the first', async () => {
    const extra = await (await admin.post('/api/visualizations', { query_id: queryId, type: 'COUNTER', options: {} })).json()
    expect((await bo.request('DELETE', `/api/visualizations/${extra.id}`)).status).toBe(403)
    expect((await admin.request('DELETE', `/api/visualizations/${extra.id}`)).status).toBe(204)
    const first = await admin.request('DELETE', `/api/visualizations/${tableId}`)
    expect(first.status).toBe(400)
    expect((await first.json()).message).toBe("The query's first visualization cannot be deleted.")
  })
})
