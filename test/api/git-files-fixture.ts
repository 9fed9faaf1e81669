import { expect } from 'vitest'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'

/**
 * An organization with some of everything a git export holds, made through the API as people make it: two sources,
 * queries (two of one name, a dropdown pointing at another, a schedule, tags), visualizations, a dashboard with a
 * chart and a text box, a webhook with a secret address, an alert told by e-mail and the webhook, a snippet and a
 * group with source rights.
 */
export interface ContentFixture {
  t: TestApp
  admin: Client
  ids: { revenue: number; regions: number; revenueAgain: number; board: number; alert: number }
}

export const WEBHOOK_SECRET = 'http://hooks.example/very-secret-path-7731'

export async function contentFixture(): Promise<ContentFixture> {
  const t = await createTestApp()
  const admin = await setUp(t.app)
  const ok = async (pending: Promise<Response>) => {
    const res = await pending
    expect(res.status, await res.clone().text()).toBeLessThan(300)
    return res.json()
  }
  const warehouse = (await ok(admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) }))).id
  const lake = (await ok(admin.post('/api/data_sources', { name: 'Lake', type: 'pg', options: pgOptionsFor(t) }))).id
  const regions = await ok(admin.post('/api/queries', { data_source_id: warehouse, name: 'Regions', query: "select 'eu' as region" }))
  const revenue = await ok(admin.post('/api/queries', {
    data_source_id: warehouse, name: 'Revenue by month', query: 'select 1 as n, {{ region }} as region\n-- by month\n',
    description: 'Monthly revenue.', tags: ['finance', 'board'], schedule: { interval: 3600, time: null, day_of_week: null, until: null },
    options: { parameters: [{ name: 'region', title: 'Region', type: 'query', queryId: regions.id, value: 'eu' }] },
  }))
  await ok(admin.post(`/api/queries/${revenue.id}`, { is_draft: false }))
  const revenueAgain = await ok(admin.post('/api/queries', { data_source_id: lake, name: 'Revenue by month', query: 'select 2 as n' }))
  const chart = await ok(admin.post('/api/visualizations', { query_id: revenue.id, type: 'COUNTER', name: 'Monthly total', options: { counterColName: 'n' } }))
  const board = await ok(admin.post('/api/dashboards', { name: 'Ops board' }))
  await ok(admin.post(`/api/dashboards/${board.id}`, { tags: ['ops'], is_draft: false }))
  await ok(admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: chart.id, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } }, width: 1 }))
  await ok(admin.post('/api/widgets', { dashboard_id: board.id, text: '## Notes\nRead me.', options: { position: { col: 3, row: 0, sizeX: 3, sizeY: 4 } }, width: 1 }))
  const hook = await ok(admin.post('/api/destinations', { name: 'Ops hook', type: 'webhook', options: { url: WEBHOOK_SECRET } }))
  const alert = await ok(admin.post('/api/alerts', { query_id: revenue.id, name: 'Revenue drop', options: { column: 'n', op: '<', value: 1 }, rearm: 300 }))
  await ok(admin.post(`/api/alerts/${alert.id}/subscriptions`, {}))
  await ok(admin.post(`/api/alerts/${alert.id}/subscriptions`, { destination_id: hook.id }))
  await ok(admin.post('/api/query_snippets', { trigger: 'revjoin', description: 'the revenue join', snippet: 'join revenue r on r.id = t.id' }))
  const group = await ok(admin.post('/api/groups', { name: 'Analysts' }))
  await ok(admin.post(`/api/groups/${group.id}/data_sources`, { data_source_id: lake }))
  await ok(admin.post(`/api/groups/${group.id}/data_sources/${lake}`, { view_only: true }))
  return { t, admin, ids: { revenue: revenue.id, regions: regions.id, revenueAgain: revenueAgain.id, board: board.id, alert: alert.id } }
}

export async function exported(admin: Client): Promise<Record<string, string>> {
  const res = await admin.get('/api/content')
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()).files
}

export async function imported(admin: Client, body: Record<string, unknown>) {
  const res = await admin.post('/api/imports', body)
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

/** Every row of the content tables with its row version (xmin): equal before and after means nothing was written. */
export async function rowVersions(t: TestApp): Promise<string> {
  const tables = ['queries', 'query_versions', 'visualizations', 'dashboards', 'widgets', 'alerts', 'alert_subscriptions', 'destinations', 'query_snippets', 'groups', 'data_source_groups', 'object_keys', 'events']
  const out: string[] = []
  for (const table of tables) {
    const rows = await t.db.sql`select ctid::text as at, xmin::text as v from ${t.db.sql(table)} order by ctid`
    out.push(`${table}: ${rows.map((r) => `${r.at}@${r.v}`).join(',')}`)
  }
  return out.join('\n')
}

/** Everything the export holds, gone from the store (users, sources and builtin groups stay). */
export async function wipe(t: TestApp) {
  await t.db.sql`truncate queries, dashboards, destinations, query_snippets cascade`
  await t.db.sql`delete from groups where type <> 'builtin'`
}
