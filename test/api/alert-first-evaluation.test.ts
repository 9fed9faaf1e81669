import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runJobs } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * When an alert is evaluated and who is told (spec 2 §4): subscriptions chosen with the create request are saved
 * before the first evaluation, which reads the query's latest result at once; a new subscriber to a triggered alert
 * gets the current state once; a saved change is evaluated against the latest result (subscribers told only of a
 * change); the history says whether anyone was told; `eval` is for the owner and admins and runs an alert's own query.
 */
let f: QueryFixture
let destination: number
let watched: number

interface History { old_state: string; new_state: string; reason: string; notified: boolean; skipped: string | null }
interface Delivery { subscription_id: number | null; new_state: string; target: { kind: string; name?: string } }

async function json(pending: Promise<Response>, status = 200) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(status)
  return res.json()
}

const history = (id: number): Promise<History[]> => json(f.bo.get(`/api/alerts/${id}/history`))
const deliveries = (id: number): Promise<Delivery[]> => json(f.bo.get(`/api/alerts/${id}/deliveries`))
const alertOn = (queryId: number, value: number, extra: Record<string, unknown> = {}) =>
  ({ name: `Over ${value}`, query_id: queryId, options: { column: 'n', op: '>', value }, ...extra })

beforeAll(async () => {
  f = await queryFixture()
  const [org] = await f.t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
  ;[{ id: destination }] = await f.t.db.sql<{ id: number }[]>`
    insert into destinations (org_id, name, type, options) values (${org.id}, 'Team hook', 'webhook', '{}') returning id`
  watched = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 5 as n', name: 'Five' })).id
  await json(f.bo.post(`/api/queries/${watched}/results`, { max_age: 0 }))
  await runJobs(f.t)
})
afterAll(() => f.t.close())

describe('creating with subscriptions', () => {
  it('saves the chosen destinations and the caller’s e-mail, then evaluates the latest result and tells them', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertOn(watched, 1, { subscriptions: [{ destination_id: destination }, {}] })))
    expect(alert.state).toBe('triggered')
    const subscriptions = await json(f.bo.get(`/api/alerts/${alert.id}/subscriptions`))
    expect(subscriptions.map((s: { destination?: { id: number } }) => s.destination?.id ?? 'e-mail')).toEqual([destination, 'e-mail'])
    expect(await history(alert.id)).toMatchObject([{ old_state: 'unknown', new_state: 'triggered', reason: 'evaluation', notified: true, skipped: null }])
    const sent = await deliveries(alert.id)
    expect(sent.map((d) => d.target.kind).sort()).toEqual(['destination', 'user_email'])
  })

  it('still takes the established tool’s body, whose destination_id is ignored', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertOn(watched, 1, { destination_id: destination })))
    expect(await json(f.bo.get(`/api/alerts/${alert.id}/subscriptions`))).toEqual([])
  })

  it('refuses an unknown destination or a malformed list, and creates nothing', async () => {
    const before = (await json(f.bo.get('/api/alerts'))).length
    expect(await refusal(f.bo.post('/api/alerts', alertOn(watched, 1, { subscriptions: [{ destination_id: 999_999 }] })))).toEqual([400, 'Destination not found.'])
    expect((await refusal(f.bo.post('/api/alerts', alertOn(watched, 1, { subscriptions: 'all' }))))[0]).toBe(400)
    expect((await json(f.bo.get('/api/alerts'))).length).toBe(before)
  })
})

describe('the history says whether anyone was told', () => {
  it('"nobody subscribed" when a change notified no one; a new subscriber then gets the current state once', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertOn(watched, 1)))
    expect(alert.state).toBe('triggered')
    expect(await history(alert.id)).toMatchObject([{ new_state: 'triggered', notified: false, skipped: 'no_subscribers' }])
    expect(await deliveries(alert.id)).toEqual([])

    const sub = await json(f.cleo.post(`/api/alerts/${alert.id}/subscriptions`, {}))
    const told = await deliveries(alert.id)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({ subscription_id: sub.id, new_state: 'triggered', target: { kind: 'user_email' } })
    expect((await history(alert.id))[0]).toMatchObject({ old_state: 'triggered', new_state: 'triggered', reason: 'subscribed', notified: true })
    // a second subscriber is told alone; the first is not told again
    const hook = await json(f.bo.post(`/api/alerts/${alert.id}/subscriptions`, { destination_id: destination }))
    const all = await deliveries(alert.id)
    expect(all.map((d) => d.subscription_id)).toEqual([hook.id, sub.id])
  })

  it('a new subscriber to an alert that is ok, or muted, is told nothing', async () => {
    const ok = await json(f.bo.post('/api/alerts', alertOn(watched, 10)))
    expect(ok.state).toBe('ok')
    await json(f.bo.post(`/api/alerts/${ok.id}/subscriptions`, {}))
    expect(await deliveries(ok.id)).toEqual([])
    const muted = await json(f.bo.post('/api/alerts', alertOn(watched, 1, { options: { column: 'n', op: '>', value: 1, muted: true } })))
    await json(f.bo.post(`/api/alerts/${muted.id}/subscriptions`, {}))
    expect(await deliveries(muted.id)).toEqual([])
  })
})

describe('saving a change', () => {
  it('evaluates the latest result again, and tells subscribers only of a change', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertOn(watched, 10, { subscriptions: [{ destination_id: destination }] })))
    expect(alert.state).toBe('ok')
    const lowered = await json(f.bo.post(`/api/alerts/${alert.id}`, { options: { column: 'n', op: '>', value: 3 } }))
    expect(lowered.state).toBe('triggered')
    expect((await history(alert.id)).map((h) => `${h.old_state}→${h.new_state}`)).toEqual(['ok→triggered', 'unknown→ok'])
    expect(await deliveries(alert.id)).toHaveLength(1)
    // still over the new threshold: no change, nobody told again
    expect((await json(f.bo.post(`/api/alerts/${alert.id}`, { options: { column: 'n', op: '>', value: 4 } }))).state).toBe('triggered')
    expect(await history(alert.id)).toHaveLength(2)
    expect(await deliveries(alert.id)).toHaveLength(1)
  })
})

describe('evaluate now', () => {
  it('is for the owner and admins only', async () => {
    const alert = await json(f.bo.post('/api/alerts', alertOn(watched, 1)))
    expect(await refusal(f.cleo.post(`/api/alerts/${alert.id}/eval`))).toEqual([403, "You don't have permission to edit this alert."])
    await json(f.admin.post(`/api/alerts/${alert.id}/eval`))
    await json(f.bo.post(`/api/alerts/${alert.id}/eval`))
    const onShared = (await newQuery(f.admin, { data_source_id: f.shared, query: 'select 7 as n', name: 'Seven' })).id
    const shared = await json(f.admin.post('/api/alerts', alertOn(onShared, 1)))
    // the view-only member sees the alert, but may not evaluate it
    expect((await json(f.vi.get(`/api/alerts/${shared.id}`))).id).toBe(shared.id)
    expect((await f.vi.post(`/api/alerts/${shared.id}/eval`)).status).toBe(403)
  })

  it('runs the query of an alert with its own parameter values, then evaluates its result and tells subscribers', async () => {
    const parameters = [{ name: 'x', title: 'x', type: 'number', value: 1 }]
    const q = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select {{x}} as n', name: 'Param', options: { parameters } })).id
    const alert = await json(f.bo.post('/api/alerts', alertOn(q, 2, {
      options: { column: 'n', op: '>', value: 2, parameters: { x: 3 } }, subscriptions: [{ destination_id: destination }],
    })))
    await runJobs(f.t)
    expect((await json(f.bo.get(`/api/alerts/${alert.id}`))).state).toBe('triggered')
    expect(await deliveries(alert.id)).toHaveLength(1)
    const [{ n: runsBefore }] = await f.t.db.sql<{ n: number }[]>`select count(*)::int as n from executions where query_id = ${q}`

    await json(f.bo.post(`/api/alerts/${alert.id}/eval`))
    await runJobs(f.t)
    const [{ n: runsAfter }] = await f.t.db.sql<{ n: number }[]>`select count(*)::int as n from executions where query_id = ${q}`
    expect(runsAfter).toBe(runsBefore + 1)
    expect((await history(alert.id))[0]).toMatchObject({ old_state: 'triggered', new_state: 'triggered', reason: 'manual', notified: true })
    expect(await deliveries(alert.id)).toHaveLength(2)
  })

  it('says so when the query of an alert with its own values cannot run now, and leaves the next run ordinary', async () => {
    const parameters = [{ name: 'x', title: 'x', type: 'number', value: 1 }]
    const q = (await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select {{x}} as n', name: 'On a paused source', options: { parameters } })).id
    const alert = await json(f.bo.post('/api/alerts', alertOn(q, 2, { options: { column: 'n', op: '>', value: 2, parameters: { x: 3 } } })))
    await f.t.db.sql`update data_sources set paused = true where id = ${f.warehouse}`
    try {
      expect(await refusal(f.bo.post(`/api/alerts/${alert.id}/eval`))).toEqual([400, "The alert's query cannot run now (its data source is paused, its owner cannot reach it, or its values no longer fit): see the query."])
    } finally {
      await f.t.db.sql`update data_sources set paused = false where id = ${f.warehouse}`
    }
    const [row] = await f.t.db.sql<{ check_manual: boolean }[]>`select check_manual from alerts where id = ${alert.id}`
    expect(row.check_manual).toBe(false)
  })
})
