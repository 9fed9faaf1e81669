import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDelivery, runAlertQuery } from '../../src/alerts/index.ts'
import type { Config } from '../../src/config.ts'
import { runJobs } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * Alerts never open a query to someone its data source's groups do not: not by listing or reading alerts, not by
 * subscribing to them, not by pointing an alert (new or saved) at the query, and not through the rows a template
 * renders (the preview, an evaluation by hand, the alert's own runs). bo and cleo have no access to `shared`.
 */
let f: QueryFixture
let secret: number
let secretAlert: number
beforeAll(async () => {
  f = await queryFixture()
  secret = (await newQuery(f.admin, { data_source_id: f.shared, query: "select 'payroll' as n", name: 'Payroll' })).id
  await f.admin.post(`/api/queries/${secret}/results`, { max_age: 0 })
  await runJobs(f.t)
  const res = await f.admin.post('/api/alerts', { name: 'Payroll watch', query_id: secret, options: { column: 'n', op: '==', value: 'x', custom_body: '{{QUERY_RESULT_ROWS}}' } })
  secretAlert = (await res.json()).id
})
afterAll(() => f.t.close())

const body = (queryId: number, extra: Record<string, unknown> = {}) =>
  ({ name: 'Peek', query_id: queryId, options: { column: 'n', op: '==', value: 'x', custom_body: '{{#QUERY_RESULT_ROWS}}{{n}}{{/QUERY_RESULT_ROWS}}' }, ...extra })

describe('alerts on a query the caller cannot see', () => {
  it('are not listed, read, subscribed to, or their history and deliveries read', async () => {
    const listed = await (await f.bo.get('/api/alerts')).json()
    expect(listed.map((a: { id: number }) => a.id)).not.toContain(secretAlert)
    expect(JSON.stringify(listed)).not.toContain('payroll')
    for (const [method, path] of [
      ['GET', `/api/alerts/${secretAlert}`], ['GET', `/api/alerts/${secretAlert}/subscriptions`], ['POST', `/api/alerts/${secretAlert}/subscriptions`],
      ['GET', `/api/alerts/${secretAlert}/history`], ['GET', `/api/alerts/${secretAlert}/deliveries`],
      ['POST', `/api/alerts/${secretAlert}`], ['POST', `/api/alerts/${secretAlert}/eval`], ['POST', `/api/alerts/${secretAlert}/mute`],
      ['DELETE', `/api/alerts/${secretAlert}`],
    ]) {
      const res = await f.bo.request(method, path, method === 'GET' ? {} : { json: {} })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(await res.text()).not.toContain('payroll')
    }
    expect(await f.t.db.sql`select 1 from alert_subscriptions where alert_id = ${secretAlert}`).toHaveLength(0)
  })
})

describe('pointing an alert at a query', () => {
  it('is refused for a query the caller cannot read, on create and on update', async () => {
    expect((await f.bo.post('/api/alerts', body(secret))).status).toBe(403)
    const own = (await (await f.bo.post('/api/alerts', body((await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1 as n', name: 'Mine' })).id))).json()).id
    expect((await f.bo.post(`/api/alerts/${own}`, { query_id: secret })).status).toBe(403)
    expect((await f.bo.post(`/api/alerts/${own}`, { query: { id: secret } })).status).toBe(403)
    expect((await (await f.bo.get(`/api/alerts/${own}`)).json()).query_id).not.toBe(secret)
  })
})

describe('templates', () => {
  it('preview no rows of a query the caller cannot read', async () => {
    const res = await f.bo.post('/api/alerts/preview', body(secret))
    expect(res.status).toBe(403)
    expect(await res.text()).not.toContain('payroll')
  })

  it('of an alert whose owner lost the query: no evaluation by hand, no change, no own run', async () => {
    const visible = (await newQuery(f.admin, { data_source_id: f.warehouse, query: "select 'open' as n", name: 'Open' })).id
    const alert = (await (await f.bo.post('/api/alerts', body(visible))).json()).id
    // the admin moves it to the secret query: bo still owns it, and must not read the secret through it
    expect((await f.admin.post(`/api/alerts/${alert}`, { query_id: secret })).status).toBe(200)
    expect((await f.bo.post(`/api/alerts/${alert}/eval`)).status).toBe(403)
    expect((await f.bo.post(`/api/alerts/${alert}`, { options: { column: 'n', op: '==', value: 'y', custom_body: '{{QUERY_RESULT_ROWS}}' } })).status).toBe(403)
    // an own run (parameter values) goes as its owner: nothing runs while the owner cannot see the query
    await f.t.db.sql`update alerts set check_interval = 60, check_next_at = now() - interval '1 second' where id = ${alert}`
    const before = await f.t.db.sql`select count(*)::int as n from executions`
    await runAlertQuery({ sql: f.t.db.sql, secretKey: f.t.deps.secretKey }, alert)
    expect(await f.t.db.sql`select count(*)::int as n from executions`).toEqual(before)
    expect((await f.t.db.sql`select check_execution_id from alerts where id = ${alert}`)[0].check_execution_id).toBeNull()
  })
})

describe('e-mail subscribers', () => {
  it('who lost access to the query are not sent its rows', async () => {
    const q = (await newQuery(f.bo, { data_source_id: f.warehouse, query: "select 'quarterly' as n", name: 'Quarterly' })).id
    await f.bo.post(`/api/queries/${q}/results`, { max_age: 0 })
    await runJobs(f.t)
    const alert = (await (await f.bo.post('/api/alerts', body(q))).json()).id
    await f.bo.post(`/api/alerts/${alert}/subscriptions`, {})
    await f.cleo.post(`/api/alerts/${alert}/subscriptions`, {})
    // cleo leaves every group that has the warehouse
    await f.t.db.sql`delete from user_groups where user_id = ${f.ids.cleo}`
    expect((await f.bo.post(`/api/alerts/${alert}/eval`)).status).toBe(200)
    const rows = await f.t.db.sql<{ id: number; email: string }[]>`select id, target->>'email' as email from alert_deliveries where alert_id = ${alert}`
    const sent: string[] = []
    const send = async (_deps: unknown, _org: number, target: { kind: string; email?: string }) => {
      sent.push(target.email ?? '')
      return { status: null, detail: 'ok' }
    }
    const deps = { sql: f.t.db.sql, secretKey: f.t.deps.secretKey, config: f.t.deps.config as Config, retryBaseMs: 10, send: send as never }
    for (const row of rows) await runDelivery(deps, row.id, 'test-worker', 1_000_000 + row.id)
    expect(sent).toEqual(['bo@example.com'])
    const [cleos] = await f.t.db.sql<{ status: string; last_error: string }[]>`
      select status, last_error from alert_deliveries where alert_id = ${alert} and target->>'email' = 'cleo@example.com'`
    expect(cleos).toEqual({ status: 'failed', last_error: "The subscriber can no longer see the alert's query: not sent." })
  })
})
