import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { warmForReports } from '../../src/reports/index.ts'
import type { Client } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * `api/subscriptions` (reports) by role: anyone who may open dashboards subscribes themself; others, groups and
 * destinations only with edit rights on the dashboard (or the query) or as an admin; a report is read, changed, sent
 * and ended by its owner or an admin. Bad input answers 400 with a message naming what is wrong.
 */
let f: QueryFixture
let board: number
let query: { id: number; visualization: number }
let slackHook: number
let pagerduty: number

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const daily = { interval: 86400, time: '08:00' }

beforeAll(async () => {
  f = await queryFixture()
  board = (await json(f.admin.post('/api/dashboards', { name: 'Sales' }))).id
  const q = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Orders', query: 'select 1 as n' })
  query = { id: q.id, visualization: (q.visualizations as { id: number }[])[0].id }
  slackHook = (await json(f.admin.post('/api/destinations', { name: 'Chat', type: 'slack', options: { url: 'http://127.0.0.1:9/slack' } }))).id
  pagerduty = (await json(f.admin.post('/api/destinations', { name: 'Pager', type: 'pagerduty', options: { integration_key: 'k' } }))).id
}, 60_000)
afterAll(async () => {
  await f?.t.close()
})

const subscribe = (client: Client, body: Record<string, unknown>) => client.post('/api/subscriptions', { dashboard_id: board, schedule: daily, ...body })

describe('creating a report', () => {
  it('subscribes a member to a dashboard for themself, in the organization time zone, and plans its first send', async () => {
    const made = await json(subscribe(f.bo, { attachments: ['png', 'pdf'] }))
    expect(made).toMatchObject({
      user: { id: f.ids.bo, name: 'Bo' }, dashboard_id: board, query_id: null, recipients: [{ user_id: f.ids.bo }],
      schedule: { interval: 86400, time: '08:00', time_zone: 'UTC', days_of_week: [] }, attachments: ['png', 'pdf'],
      skip_if_empty: false, paused: false, last_sent_at: null,
    })
    const next = new Date(made.next_send_at)
    expect(next.getTime()).toBeGreaterThan(Date.now())
    expect(next.toISOString().slice(11, 16)).toBe('08:00')
  })

  it('reads time and weekdays in the schedule time zone', async () => {
    const made = await json(subscribe(f.bo, { schedule: { interval: 604800, time: '09:30', days_of_week: ['Monday', 'Thursday'], time_zone: 'America/New_York' } }))
    const next = new Date(made.next_send_at)
    const local = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(next)
    expect(local).toMatch(/^(Monday|Thursday) 09:30$/)
  })

  it('subscribes a query visualization, and refuses a visualization of another query', async () => {
    const made = await json(f.bo.post('/api/subscriptions', { query_id: query.id, visualization_id: query.visualization, schedule: daily }))
    expect(made).toMatchObject({ query_id: query.id, visualization_id: query.visualization, dashboard_id: null, name: 'Orders' })
    const other = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Other', query: 'select 2' })
    const otherViz = (other.visualizations as { id: number }[])[0].id
    expect(await refusal(f.bo.post('/api/subscriptions', { query_id: query.id, visualization_id: otherViz, schedule: daily })))
      .toEqual([400, 'The visualization is not one of this query.'])
  })

  it("refuses a query the caller may not see (403), and one of no organization's (400)", async () => {
    const hidden = await newQuery(f.admin, { data_source_id: f.shared, name: 'Hidden', query: 'select 3' })
    const viz = (hidden.visualizations as { id: number }[])[0].id
    expect((await f.bo.post('/api/subscriptions', { query_id: hidden.id, visualization_id: viz, schedule: daily })).status).toBe(403)
    expect((await f.bo.post('/api/subscriptions', { query_id: 999999, visualization_id: viz, schedule: daily })).status).toBe(400)
  })

  it('lets only editors of the dashboard and admins send to others, groups and destinations', async () => {
    expect(await refusal(subscribe(f.bo, { recipients: [{ user_id: f.ids.cleo }] })))
      .toEqual([403, 'Only those who may edit the dashboard (or admins) may send reports to others than themselves.'])
    expect((await subscribe(f.bo, { recipients: [{ destination_id: slackHook }] })).status).toBe(403)
    const byAdmin = await json(subscribe(f.admin, { recipients: [{ user_id: f.ids.cleo }, { destination_id: slackHook }, { user_id: f.ids.cleo }] }))
    expect(byAdmin.recipients).toEqual([{ user_id: f.ids.cleo }, { destination_id: slackHook }])
    // the owner of a dashboard edits it: they may send it to others
    const own = (await json(f.bo.post('/api/dashboards', { name: "Bo's" }))).id
    expect((await f.bo.post('/api/subscriptions', { dashboard_id: own, schedule: daily, recipients: [{ user_id: f.ids.cleo }] })).status).toBe(200)
  })

  it('refuses destinations of other kinds, naming the kind, and unknown people, groups and destinations', async () => {
    expect(await refusal(subscribe(f.admin, { recipients: [{ destination_id: pagerduty }] })))
      .toEqual([400, expect.stringContaining('Reports cannot be sent to pagerduty destinations')])
    expect(await refusal(subscribe(f.admin, { recipients: [{ user_id: 999999 }] }))).toEqual([400, 'User 999999 not found.'])
    expect(await refusal(subscribe(f.admin, { recipients: [{ group_id: 999999 }] }))).toEqual([400, 'Group 999999 not found.'])
    expect(await refusal(subscribe(f.admin, { recipients: [{ destination_id: 999999 }] }))).toEqual([400, 'Destination 999999 not found.'])
    expect(await refusal(subscribe(f.admin, { recipients: [{ email: 'x@example.com' }] })))
      .toEqual([400, 'Each recipient must be {user_id}, {group_id} or {destination_id}.'])
  })

  it('refuses a schedule more often than hourly, one whose end is past, an unknown time zone and unknown attachments', async () => {
    expect(await refusal(subscribe(f.bo, { schedule: { interval: 60 } }))).toEqual([400, expect.stringContaining('at least 3600')])
    expect(await refusal(subscribe(f.bo, { schedule: { ...daily, until: '2020-01-01' } }))).toEqual([400, expect.stringContaining('in the past')])
    expect(await refusal(subscribe(f.bo, { schedule: { ...daily, time_zone: 'Mars/Olympus' } }))).toEqual([400, expect.stringContaining('time_zone')])
    expect(await refusal(subscribe(f.bo, { schedule: { ...daily, time: '25:00' } }))).toEqual([400, expect.stringContaining('schedule.time')])
    expect(await refusal(subscribe(f.bo, { attachments: ['gif'] }))).toEqual([400, expect.stringContaining('png, pdf, csv and xlsx')])
    expect((await subscribe(f.bo, { schedule: null })).status).toBe(400)
    expect((await f.bo.post('/api/subscriptions', { schedule: daily })).status).toBe(400)
    expect((await f.bo.post('/api/subscriptions', { dashboard_id: board, query_id: query.id, schedule: daily })).status).toBe(400)
  })

  it('caps recipients at 500, counting groups by their members', async () => {
    const [org] = await f.t.db.sql<{ id: number }[]>`select id from organizations limit 1`
    const [group] = await f.t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Everyone else', '{}') returning id`
    await f.t.db.sql`
      with made as (
        insert into users (org_id, name, email)
        select ${org.id}, 'Reader ' || i, 'reader' || i || '@example.com' from generate_series(1, 500) i returning id)
      insert into user_groups (user_id, group_id) select id, ${group.id} from made`
    expect((await subscribe(f.admin, { recipients: [{ group_id: group.id }] })).status).toBe(200)
    expect(await refusal(subscribe(f.admin, { recipients: [{ group_id: group.id }, { user_id: f.ids.bo }] })))
      .toEqual([400, 'A report may go to at most 500 recipients (groups counted by their members).'])
  })
})

describe('reading, changing, sending and ending a report', () => {
  it("shows a member their own reports only, and an admin everyone's", async () => {
    const mine = await json(subscribe(f.cleo, {}))
    const cleos = await json(f.cleo.get('/api/subscriptions'))
    expect(cleos.map((s: { id: number }) => s.id)).toEqual([mine.id])
    const all = await json(f.admin.get('/api/subscriptions'))
    expect(all.map((s: { id: number }) => s.id)).toContain(mine.id)
    expect((await json(f.admin.get('/api/subscriptions?mine'))).map((s: { id: number }) => s.id)).not.toContain(mine.id)
    expect((await f.bo.get(`/api/subscriptions/${mine.id}`)).status).toBe(403)
    expect((await f.admin.get(`/api/subscriptions/${mine.id}`)).status).toBe(200)
    expect((await f.admin.get('/api/subscriptions/99999999')).status).toBe(404)
  })

  it('pauses (no next send) and resumes; a stranger may neither change, send nor end it', async () => {
    const made = await json(subscribe(f.cleo, {}))
    const paused = await json(f.cleo.post(`/api/subscriptions/${made.id}`, { paused: true }))
    expect(paused).toMatchObject({ paused: true, next_send_at: null })
    const resumed = await json(f.cleo.post(`/api/subscriptions/${made.id}`, { paused: false }))
    expect(resumed.paused).toBe(false)
    expect(resumed.next_send_at).not.toBeNull()
    expect((await f.bo.post(`/api/subscriptions/${made.id}`, { paused: true })).status).toBe(403)
    expect((await f.bo.post(`/api/subscriptions/${made.id}/send`, {})).status).toBe(403)
    expect((await f.bo.request('DELETE', `/api/subscriptions/${made.id}`)).status).toBe(403)
    expect((await f.bo.get(`/api/subscriptions/${made.id}/deliveries`)).status).toBe(403)
    // a member may not widen their own report to others by a change either
    expect((await f.cleo.post(`/api/subscriptions/${made.id}`, { recipients: [{ user_id: f.ids.bo }] })).status).toBe(403)
    expect((await f.cleo.request('DELETE', `/api/subscriptions/${made.id}`)).status).toBe(200)
    expect((await f.cleo.get(`/api/subscriptions/${made.id}`)).status).toBe(404)
  })

  it('queues a send now, to all or as a preview to the caller, and shows an empty history before any', async () => {
    const made = await json(subscribe(f.cleo, {}))
    const all = await json(f.cleo.post(`/api/subscriptions/${made.id}/send`, {}))
    const preview = await json(f.cleo.post(`/api/subscriptions/${made.id}/send`, { to: 'me' }))
    expect(all).toMatchObject({ to: 'all', send_id: expect.any(Number) })
    expect(preview).toMatchObject({ to: 'me', send_id: expect.any(Number) })
    expect(await refusal(f.cleo.post(`/api/subscriptions/${made.id}/send`, { to: 'everyone' }))).toEqual([400, 'to must be "me" or "all".'])
    const jobs = await f.t.db.sql`select key from graphile_worker.jobs where task_identifier = 'send_report'`
    expect(jobs.map((j) => j.key)).toEqual(expect.arrayContaining([`report-send:${all.send_id}`, `report-send:${preview.send_id}`]))
    expect(await json(f.cleo.get(`/api/subscriptions/${made.id}/deliveries`))).toEqual({ deliveries: [], sends_without_deliveries: [] })
  })

  it('ends the reports of a query when it is archived', async () => {
    const q = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Soon archived', query: 'select 5' })
    const made = await json(f.admin.post('/api/subscriptions', { query_id: q.id, visualization_id: (q.visualizations as { id: number }[])[0].id, schedule: daily }))
    expect((await f.admin.request('DELETE', `/api/queries/${q.id}`)).status).toBe(200)
    expect((await f.admin.get(`/api/subscriptions/${made.id}`)).status).toBe(404)
  })
})

describe('a worker starting', () => {
  it('gets the report drawing ready only when some report is set to go out', async () => {
    const all = (await json(f.admin.get('/api/subscriptions'))) as { id: number; paused: boolean }[]
    for (const s of all.filter((s) => !s.paused)) await json(f.admin.post(`/api/subscriptions/${s.id}`, { paused: true }))
    expect(await warmForReports(f.t.db.sql)).toBe(false)
    const made = await json(subscribe(f.cleo, {}))
    expect(made.paused).toBe(false)
    expect(await warmForReports(f.t.db.sql)).toBe(true)
  })
})
