import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAlerts, restartBrokenAlertRuns } from '../../src/alerts/index.ts'
import { Client, runJobs } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * The alerts API (spec 2 §7, reference §1.4, redash-server.md §6.1) for every kind of caller of queries-fixture.ts:
 * admin; bo, who owns the alerts (default group: full access to `warehouse`); cleo, another member; vi, view-only on
 * `shared`; lou, without `list_alerts` and without `shared`; and nobody signed in. Bad input is a 4xx with a message.
 */
let f: QueryFixture
let anonymous: Client
let onWarehouse: number
let onShared: number
let destination: number
const alertBody = (queryId: number, extra: Record<string, unknown> = {}) =>
  ({ name: 'Too many', query_id: queryId, options: { column: 'n', op: '>', value: 1 }, rearm: null, ...extra })

async function json(pending: Promise<Response>, status = 200) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(status)
  return res.json()
}

beforeAll(async () => {
  f = await queryFixture()
  anonymous = new Client(f.t.app)
  onWarehouse = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 5 as n, 2 as m', name: 'Five' })).id
  onShared = (await newQuery(f.admin, { data_source_id: f.shared, query: 'select 7 as n', name: 'Seven' })).id
  const [org] = await f.t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
  ;[{ id: destination }] = await f.t.db.sql<{ id: number }[]>`
    insert into destinations (org_id, name, type, options) values (${org.id}, 'Team hook', 'webhook', '{}') returning id`
})
afterAll(() => f.t.close())

describe('creating', () => {
  it('answers the established shape: query and owner inside, state unknown, selector first', async () => {
    const alert = await json(f.bo.post('/api/alerts', { ...alertBody(onWarehouse), destination_id: 12 }))
    expect(alert).toMatchObject({
      name: 'Too many', state: 'unknown', last_triggered_at: null, rearm: null, check_interval: null, query_id: onWarehouse,
      options: { column: 'n', op: '>', value: 1, selector: 'first', muted: false },
      query: { id: onWarehouse, name: 'Five', user: { id: f.ids.bo } }, user: { id: f.ids.bo, email: 'bo@example.com' },
    })
    for (const key of ['id', 'name', 'options', 'state', 'last_triggered_at', 'updated_at', 'created_at', 'rearm', 'query', 'user']) expect(alert).toHaveProperty(key)
    expect(alert.user).not.toHaveProperty('api_key')
  })

  it('trims the name, or names the alert after its query and condition', async () => {
    expect((await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { name: '  Spaced  ' })))).name).toBe('Spaced')
    expect((await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { name: '   ' })))).name).toBe('Five: n > 1')
    expect((await json(f.bo.post('/api/alerts', { query_id: onWarehouse, options: { column: 'n', op: '<', value: 3 } }))).name).toBe('Five: n < 3')
  })

  it('reads legacy operators as symbols, on save and on read', async () => {
    const saved = await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { options: { column: 'n', op: 'greater than', value: 1 } })))
    expect(saved.options.op).toBe('>')
    await f.t.db.sql`update alerts set options = options - 'selector' || '{"op": "equals"}' where id = ${saved.id}`
    expect((await json(f.bo.get(`/api/alerts/${saved.id}`))).options).toMatchObject({ op: '==', selector: 'first' })
  })

  it('keeps rearm in seconds', async () => {
    expect((await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { rearm: 3600 })))).rearm).toBe(3600)
    expect((await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { rearm: 0 })))).rearm).toBe(0)
  })

  it.each([
    [{ options: { column: 'n', op: '>', value: 1 } }, 400, 'query_id'],
    [{ query_id: 'x', options: {} }, 400, 'query_id'],
    [{ name: 'x' }, 400, 'query_id'],
    [{ query_id: 0, options: { column: 'n', op: '>', value: 1 } }, 400, 'query_id'],
    [{ query_id: '{{q}}' }, 400, 'options'],
    [{ query_id: '{{q}}', options: 'x' }, 400, 'options'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '≈', value: 1 } }, 400, 'Unknown operator'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 'many' } }, 400, "Value column type doesn't match threshold type."],
    [{ query_id: '{{q}}', options: { op: '>', value: 1 } }, 400, 'value column'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>' } }, 400, 'threshold'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 1, selector: 'avg' } }, 400, 'selector'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 1 }, rearm: -1 }, 400, 'rearm'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 1 }, rearm: 'soon' }, 400, 'rearm'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 1 }, check_interval: 5 }, 400, 'check_interval'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 1, custom_body: 'x'.repeat(60_000) } }, 400, 'too long'],
    [{ query_id: '{{q}}', options: { column: 'n', op: '>', value: 1, pad: 'x'.repeat(200_000) } }, 400, 'too large'],
    [{ query_id: 999_999, options: { column: 'n', op: '>', value: 1 } }, 400, 'Query not found.'],
    [[1, 2], 400, 'JSON object'],
  ])('refuses %#', async (body, status, message) => {
    const sent = JSON.parse(JSON.stringify(body).replace('"{{q}}"', String(onWarehouse)))
    const [code, text] = await refusal(f.bo.post('/api/alerts', sent))
    expect(code).toBe(status)
    expect(text).toContain(message)
  })

  it('needs a query the caller may see, not archived', async () => {
    expect(await refusal(f.bo.post('/api/alerts', alertBody(onShared)))).toEqual([403, "You don't have access to this query."])
    expect(await refusal(f.lou.post('/api/alerts', alertBody(onShared)))).toEqual([403, "You don't have access to this query."])
    // view-only access is enough to watch a query (reference §6.1)
    expect((await json(f.vi.post('/api/alerts', alertBody(onShared)))).query_id).toBe(onShared)
    const gone = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1 as n', name: 'Gone' })).id
    await json(f.bo.request('DELETE', `/api/queries/${gone}`))
    expect(await refusal(f.bo.post('/api/alerts', alertBody(gone)))).toEqual([400, 'Alerts cannot watch an archived query.'])
    expect((await anonymous.post('/api/alerts', alertBody(onWarehouse))).status).toBe(401)
  })
})

describe('listing and reading', () => {
  let mine: number
  let shared: number
  beforeAll(async () => {
    mine = (await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { name: 'Listed' })))).id
    shared = (await json(f.admin.post('/api/alerts', alertBody(onShared, { name: 'On shared' })))).id
  })

  it('lists alerts on queries the caller may see, newest first, each once', async () => {
    const names = async (client: Client) => (await json(client.get('/api/alerts'))).map((a: { id: number }) => a.id)
    const admin = await names(f.admin)
    expect(admin).toEqual(expect.arrayContaining([mine, shared]))
    expect(admin.indexOf(shared)).toBeLessThan(admin.indexOf(mine))
    expect(new Set(admin).size).toBe(admin.length)
    expect(await names(f.bo)).toContain(mine)
    expect(await names(f.bo)).not.toContain(shared)
    expect(await names(f.cleo)).toContain(mine)
    expect(await names(f.vi)).toEqual(expect.arrayContaining([mine, shared]))
  })

  it('needs list_alerts to list, and a session or key', async () => {
    expect((await f.lou.get('/api/alerts')).status).toBe(403)
    expect((await anonymous.get('/api/alerts')).status).toBe(401)
  })

  it('reads one alert for whoever sees its query: 403 otherwise, 404 for none', async () => {
    expect((await json(f.cleo.get(`/api/alerts/${mine}`))).id).toBe(mine)
    expect((await json(f.vi.get(`/api/alerts/${shared}`))).id).toBe(shared)
    expect((await f.bo.get(`/api/alerts/${shared}`)).status).toBe(403)
    expect((await f.lou.get(`/api/alerts/${shared}`)).status).toBe(403)
    expect((await f.bo.get('/api/alerts/999999')).status).toBe(404)
    expect((await f.bo.get('/api/alerts/abc')).status).toBe(404)
    expect((await anonymous.get(`/api/alerts/${mine}`)).status).toBe(401)
  })
})

describe('changing', () => {
  let id: number
  beforeAll(async () => {
    id = (await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { name: 'Changing', rearm: 60 })))).id
  })

  it('lets the owner and admins change only what they send', async () => {
    const renamed = await json(f.bo.post(`/api/alerts/${id}`, { name: ' Renamed ' }))
    expect(renamed).toMatchObject({ name: 'Renamed', rearm: 60, options: { column: 'n', op: '>', value: 1 } })
    const byAdmin = await json(f.admin.post(`/api/alerts/${id}`, { options: { column: 'm', op: '<=', value: '3' }, rearm: null }))
    expect(byAdmin).toMatchObject({ name: 'Renamed', rearm: null, options: { column: 'm', op: '<=', value: '3', selector: 'first', muted: false } })
  })

  it('refuses others, and bad input', async () => {
    expect(await refusal(f.cleo.post(`/api/alerts/${id}`, { name: 'Mine now' }))).toEqual([403, "You don't have permission to edit this alert."])
    expect((await f.vi.post(`/api/alerts/${id}`, { name: 'x' })).status).toBe(403)
    expect((await anonymous.post(`/api/alerts/${id}`, { name: 'x' })).status).toBe(401)
    expect((await refusal(f.bo.post(`/api/alerts/${id}`, { options: { column: 'n', op: 'about', value: 1 } })))[0]).toBe(400)
    expect((await refusal(f.bo.post(`/api/alerts/${id}`, { rearm: 1.5 })))[0]).toBe(400)
    expect((await f.bo.post('/api/alerts/999999', { name: 'x' })).status).toBe(404)
  })

  it('checks a new query_id for access, unlike the established tool', async () => {
    expect(await refusal(f.bo.post(`/api/alerts/${id}`, { query_id: onShared }))).toEqual([403, "You don't have access to this query."])
    expect((await json(f.bo.get(`/api/alerts/${id}`))).query_id).toBe(onWarehouse)
    await f.t.db.sql`update alerts set state = 'triggered' where id = ${id}`
    const moved = await json(f.admin.post(`/api/alerts/${id}`, { query_id: onShared }))
    // a new query says nothing of the old state
    expect(moved).toMatchObject({ query_id: onShared, state: 'unknown' })
    // the owner no longer sees the query: they may not change it (nor read its rows through an evaluation)
    expect((await f.bo.post(`/api/alerts/${id}`, { name: 'x' })).status).toBe(403)
    expect((await f.bo.post(`/api/alerts/${id}/eval`)).status).toBe(403)
  })

  it('mutes and unmutes for the owner or an admin; an options save keeps the flag', async () => {
    const own = (await json(f.bo.post('/api/alerts', alertBody(onWarehouse)))).id
    expect(await json(f.bo.post(`/api/alerts/${own}/mute`))).toBeNull()
    expect((await json(f.bo.get(`/api/alerts/${own}`))).options.muted).toBe(true)
    await json(f.bo.post(`/api/alerts/${own}`, { options: { column: 'n', op: '>', value: 2 } }))
    expect((await json(f.bo.get(`/api/alerts/${own}`))).options.muted).toBe(true)
    expect((await f.cleo.post(`/api/alerts/${own}/mute`)).status).toBe(403)
    expect((await f.cleo.request('DELETE', `/api/alerts/${own}/mute`)).status).toBe(403)
    await json(f.admin.request('DELETE', `/api/alerts/${own}/mute`))
    expect((await json(f.bo.get(`/api/alerts/${own}`))).options.muted).toBe(false)
  })

  it('deletes for the owner or an admin', async () => {
    const own = (await json(f.bo.post('/api/alerts', alertBody(onWarehouse)))).id
    expect((await f.cleo.request('DELETE', `/api/alerts/${own}`)).status).toBe(403)
    await json(f.bo.request('DELETE', `/api/alerts/${own}`))
    expect((await f.bo.get(`/api/alerts/${own}`)).status).toBe(404)
    const other = (await json(f.bo.post('/api/alerts', alertBody(onWarehouse)))).id
    await json(f.admin.request('DELETE', `/api/alerts/${other}`))
  })

  it('archiving the query deletes its alerts', async () => {
    const q = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 3 as n', name: 'Short-lived' })).id
    const alert = (await json(f.bo.post('/api/alerts', alertBody(q)))).id
    await json(f.bo.request('DELETE', `/api/queries/${q}`))
    expect((await f.bo.get(`/api/alerts/${alert}`)).status).toBe(404)
  })
})

describe('subscriptions', () => {
  let id: number
  beforeAll(async () => {
    id = (await json(f.bo.post('/api/alerts', alertBody(onWarehouse, { name: 'Subscribed' })))).id
  })

  it('subscribes the caller by e-mail, or a destination; a duplicate is a 400 with a message', async () => {
    const mail = await json(f.cleo.post(`/api/alerts/${id}/subscriptions`, {}))
    expect(mail).toMatchObject({ alert_id: id, user: { id: f.ids.cleo, email: 'cleo@example.com' } })
    expect(mail).not.toHaveProperty('destination')
    expect(await refusal(f.cleo.post(`/api/alerts/${id}/subscriptions`))).toEqual([400, 'You are already subscribed to this alert by e-mail.'])
    // another person's e-mail subscription is their own
    await json(f.bo.post(`/api/alerts/${id}/subscriptions`))
    const hook = await json(f.bo.post(`/api/alerts/${id}/subscriptions`, { destination_id: destination }))
    expect(hook).toMatchObject({ alert_id: id, user: { id: f.ids.bo }, destination: { id: destination, name: 'Team hook', type: 'webhook', icon: 'fa-bolt' } })
    expect(await refusal(f.cleo.post(`/api/alerts/${id}/subscriptions`, { destination_id: destination }))).toEqual([400, 'This destination is already subscribed to this alert.'])
    expect(await refusal(f.cleo.post(`/api/alerts/${id}/subscriptions`, { destination_id: 999_999 }))).toEqual([400, 'Destination not found.'])
    expect((await refusal(f.cleo.post(`/api/alerts/${id}/subscriptions`, { destination_id: { x: 1 } })))[0]).toBe(400)
    const listed = await json(f.vi.get(`/api/alerts/${id}/subscriptions`))
    expect(listed.map((s: { user: { id: number } }) => s.user.id)).toEqual([f.ids.cleo, f.ids.bo, f.ids.bo])
  })

  it('is 403 on alerts the caller cannot see', async () => {
    const shared = (await json(f.admin.post('/api/alerts', alertBody(onShared)))).id
    expect((await f.bo.get(`/api/alerts/${shared}/subscriptions`)).status).toBe(403)
    expect((await f.bo.post(`/api/alerts/${shared}/subscriptions`, {})).status).toBe(403)
    expect((await f.lou.post(`/api/alerts/${shared}/subscriptions`, {})).status).toBe(403)
    expect((await anonymous.post(`/api/alerts/${shared}/subscriptions`, {})).status).toBe(401)
    expect((await json(f.vi.post(`/api/alerts/${shared}/subscriptions`, {}))).user.id).toBe(f.ids.vi)
  })

  it('is removed by the subscriber or an admin only', async () => {
    const subs = await json(f.bo.get(`/api/alerts/${id}/subscriptions`))
    const cleos = subs.find((s: { user: { id: number } }) => s.user.id === f.ids.cleo).id
    const bos = subs.find((s: { user: { id: number }; destination?: unknown }) => s.user.id === f.ids.bo && !s.destination).id
    const hook = subs.find((s: { destination?: unknown }) => s.destination).id
    // the alert's owner may not remove a colleague's subscription
    expect(await refusal(f.bo.request('DELETE', `/api/alerts/${id}/subscriptions/${cleos}`))).toEqual([403, 'Only the subscriber or an admin can remove this subscription.'])
    await json(f.cleo.request('DELETE', `/api/alerts/${id}/subscriptions/${cleos}`))
    expect((await f.cleo.request('DELETE', `/api/alerts/${id}/subscriptions/${hook}`)).status).toBe(403)
    await json(f.admin.request('DELETE', `/api/alerts/${id}/subscriptions/${hook}`))
    await json(f.bo.request('DELETE', `/api/alerts/${id}/subscriptions/${bos}`))
    expect((await f.bo.request('DELETE', `/api/alerts/${id}/subscriptions/${bos}`)).status).toBe(404)
    expect(await json(f.bo.get(`/api/alerts/${id}/subscriptions`))).toEqual([])
  })
})

describe('evaluation by hand, history and deliveries', () => {
  it('evaluates the stored result, records the change and queues a delivery per subscription', async () => {
    const q = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 5 as n', name: 'Evaluated' })).id
    const id = (await json(f.bo.post('/api/alerts', alertBody(q, { options: { column: 'n', op: '>', value: 1 } })))).id
    expect(await refusal(f.bo.post(`/api/alerts/${id}/eval`))).toEqual([400, 'The query has no result to evaluate yet: run it first.'])
    await json(f.bo.post(`/api/alerts/${id}/subscriptions`, { destination_id: destination }))
    await f.bo.post(`/api/queries/${q}/results`, { max_age: 0 })
    await f.t.db.sql`delete from alert_subscriptions where alert_id = ${id}` // the run's own check must not deliver yet
    await runJobs(f.t)
    // the run's check found the alert triggered (nobody subscribed then)
    expect((await json(f.bo.get(`/api/alerts/${id}`))).state).toBe('triggered')
    // the destination subscribed now is told the current state once
    await json(f.bo.post(`/api/alerts/${id}/subscriptions`, { destination_id: destination }))
    expect((await f.cleo.post(`/api/alerts/${id}/eval`)).status).toBe(403)
    const after = await json(f.bo.post(`/api/alerts/${id}/eval`))
    expect(after).toMatchObject({ id, state: 'triggered' })
    const history = await json(f.cleo.get(`/api/alerts/${id}/history`))
    expect(history.map((h: { old_state: string; new_state: string; reason: string; skipped: string | null }) => [h.old_state, h.new_state, h.reason, h.skipped]))
      .toEqual([['triggered', 'triggered', 'manual', null], ['triggered', 'triggered', 'subscribed', null], ['unknown', 'triggered', 'evaluation', 'no_subscribers']])
    expect(history[0]).toMatchObject({ value: 5, notified: true })
    const deliveries = await json(f.cleo.get(`/api/alerts/${id}/deliveries`))
    expect(deliveries).toHaveLength(2)
    for (const d of deliveries) expect(d).toMatchObject({ status: 'pending', attempts: 0, new_state: 'triggered', target: { kind: 'destination', destination_id: destination, name: 'Team hook' } })
    const shared = (await json(f.admin.post('/api/alerts', alertBody(onShared)))).id
    expect((await f.bo.get(`/api/alerts/${shared}/history`)).status).toBe(403)
    expect((await f.bo.get(`/api/alerts/${shared}/deliveries`)).status).toBe(403)
  })
})

describe('results checked out of order', () => {
  it('an older result checked after a newer one changes nothing', async () => {
    await f.t.db.sql`create table alert_seq (n int)`
    await f.t.db.sql`insert into alert_seq values (1)`
    const q = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select n from alert_seq', name: 'Sequence' })).id
    const id = (await json(f.bo.post('/api/alerts', alertBody(q, { options: { column: 'n', op: '>', value: 5 } })))).id
    const run = async () => {
      await f.bo.post(`/api/queries/${q}/results`, { max_age: 0 })
      await runJobs(f.t)
      return (await f.t.db.sql<{ id: number }[]>`select latest_query_data_id as id from queries where id = ${q}`)[0].id
    }
    const older = await run()
    await f.t.db.sql`update alert_seq set n = 9`
    const newer = await run()
    expect(newer).toBeGreaterThan(older)
    expect((await json(f.bo.get(`/api/alerts/${id}`))).state).toBe('triggered')
    expect(await checkAlerts(f.t.deps, { resultId: older, which: { queryId: q } })).toEqual({ evaluated: 0, changed: 0, deliveries: 0 })
    expect((await json(f.bo.get(`/api/alerts/${id}`))).state).toBe('triggered')
  })
})

describe('parameter values', () => {
  let numeric: number
  let text: number
  beforeAll(async () => {
    const parameters = [{ name: 'x', title: 'x', type: 'number', value: 1 }]
    numeric = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select {{x}} as n', name: 'Param', options: { parameters } })).id
    const textParameters = [{ name: 'who', title: 'who', type: 'text', value: 'a' }]
    text = (await newQuery(f.admin, { data_source_id: f.shared, query: "select '{{who}}' as n", name: 'Text param', options: { parameters: textParameters } })).id
  })

  it('run on their own interval, an hour unless told', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertBody(numeric, { options: { column: 'n', op: '>', value: 1, parameters: { x: 3 } } })))
    expect(alert).toMatchObject({ check_interval: 3600, options: { parameters: { x: 3 } } })
    const [job] = await f.t.db.sql`select 1 from graphile_worker.jobs where key = ${`alert-run:${alert.id}`}`
    expect(job).toBeDefined()
    const plain = await json(f.bo.post('/api/alerts', alertBody(numeric)))
    expect(plain.check_interval).toBeNull()
    const set = await json(f.bo.post(`/api/alerts/${plain.id}`, { options: { column: 'n', op: '>', value: 1, parameters: { x: 2 } }, check_interval: 120 }))
    expect(set.check_interval).toBe(120)
  })

  it('start again when their chain of run jobs broke', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertBody(numeric, { check_interval: 60, options: { column: 'n', op: '>', value: 1, parameters: { x: 4 } } })))
    const key = `alert-run:${alert.id}`
    await f.t.db.sql`select graphile_worker.remove_job(${key})`
    await f.t.db.sql`update alerts set check_next_at = now() - interval '5 minutes' where id = ${alert.id}`
    expect(await restartBrokenAlertRuns(f.t.db.sql)).toBeGreaterThanOrEqual(1)
    expect(await f.t.db.sql`select 1 from graphile_worker.jobs where key = ${key}`).toHaveLength(1)
    expect(await restartBrokenAlertRuns(f.t.db.sql)).toBe(0)
  })

  it('must name the query parameters, with valid values', async () => {
    expect(await refusal(f.bo.post('/api/alerts', alertBody(numeric, { options: { column: 'n', op: '>', value: 1, parameters: { y: 3 } } }))))
      .toEqual([400, 'The query has no parameter named "y".'])
    expect((await refusal(f.bo.post('/api/alerts', alertBody(numeric, { options: { column: 'n', op: '>', value: 1, parameters: { x: 'abc' } } }))))[0]).toBe(400)
  })

  it('for a query with text parameters need full access to its source', async () => {
    const body = alertBody(text, { options: { column: 'n', op: '==', value: 'a', parameters: { who: 'b' } } })
    expect((await refusal(f.vi.post('/api/alerts', body)))[0]).toBe(403)
    expect((await json(f.admin.post('/api/alerts', body))).options.parameters).toEqual({ who: 'b' })
  })
})

describe('template preview', () => {
  it('renders the custom or default texts with the query’s latest result', async () => {
    await f.bo.post(`/api/queries/${onWarehouse}/results`, { max_age: 0 })
    await runJobs(f.t)
    const preview = await json(f.bo.post('/api/alerts/preview', {
      query_id: onWarehouse, name: 'Watch', options: { column: 'n', op: '>', value: 1, custom_body: 'Value {{QUERY_RESULT_VALUE}} <{{ALERT_STATUS}}>' },
    }))
    expect(preview).toMatchObject({ subject: 'Alert: Watch changed status to TRIGGERED', body: 'Value 5 <TRIGGERED>', value: 5, state: 'triggered' })
    const broken = await json(f.bo.post('/api/alerts/preview', { query_id: onWarehouse, options: { column: 'n', custom_body: '{{#open}}' } }))
    expect(broken.error).toBeTruthy()
    expect(broken.body).toContain('STATUS: TRIGGERED')
  })

  it('never renders rows of a query the caller cannot see', async () => {
    expect((await f.bo.post('/api/alerts/preview', { query_id: onShared, options: { custom_body: '{{QUERY_RESULT_ROWS}}' } })).status).toBe(403)
    expect((await refusal(f.bo.post('/api/alerts/preview', { options: {} })))[0]).toBe(400)
  })
})
