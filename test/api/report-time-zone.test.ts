import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PERMISSIONS } from '../../src/permissions/index.ts'
import { planDueReports } from '../../src/reports/index.ts'
import { addUser, signInAs, type Client } from '../helpers/app.ts'
import { islandProps } from '../helpers/pages.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * A person's own time zone (their profile) and what the Subscribe dialog offers each role: an admin and a member who
 * edits the dashboard send to others, a member who may only view it subscribes themself; every one of them is offered
 * their own time zone beside the organization's, and the dashboard's parameters with the page's values.
 */
let f: QueryFixture
let viewOnly: Client
let viewOnlyId: number
let board: { id: number; slug: string }
let bosBoard: { id: number; slug: string }

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

beforeAll(async () => {
  f = await queryFixture()
  // a member whose one group reads the warehouse view-only and may not make or change anything
  const [org] = await f.t.db.sql<{ id: number }[]>`select id from organizations where slug = 'default'`
  const [readers] = await f.t.db.sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${DEFAULT_PERMISSIONS.filter((p) => !p.startsWith('create') && !p.startsWith('edit'))}) returning id`
  viewOnlyId = (await addUser(f.t, { name: 'Val', email: 'val@example.com', password: 'val-password' })).id
  await f.t.db.sql`delete from user_groups where user_id = ${viewOnlyId}`
  await f.t.db.sql`insert into user_groups (user_id, group_id) values (${viewOnlyId}, ${readers.id})`
  await json(f.admin.post(`/api/groups/${readers.id}/data_sources`, { data_source_id: f.warehouse }))
  await json(f.admin.post(`/api/groups/${readers.id}/data_sources/${f.warehouse}`, { view_only: true }))
  viewOnly = (await signInAs(f.t.app, 'val@example.com', 'val-password')).client

  const q = await newQuery(f.admin, {
    data_source_id: f.warehouse, name: 'Times', query: 'select {{x}} * 10 as n',
    options: { parameters: [{ name: 'x', title: 'X', type: 'number', value: 1 }] },
  })
  board = await json(f.admin.post('/api/dashboards', { name: 'Times' }))
  await json(f.admin.post(`/api/dashboards/${board.id}`, { is_draft: false }))
  await json(f.admin.post('/api/widgets', {
    dashboard_id: board.id, visualization_id: (q.visualizations as { id: number }[])[0].id,
    options: { parameterMappings: { x: { name: 'x', type: 'dashboard-level', mapTo: 'x', value: null, title: '' } } },
  }))
  bosBoard = await json(f.bo.post('/api/dashboards', { name: "Bo's board" }))
}, 60_000)
afterAll(async () => {
  await f?.t.close()
})

describe("a person's own time zone", () => {
  it('is set on their profile (an IANA name, or none), by themself or an admin, and refused when unknown', async () => {
    expect((await json(f.bo.get(`/api/users/${f.ids.bo}`))).time_zone).toBeNull()
    expect((await json(f.bo.post(`/api/users/${f.ids.bo}`, { time_zone: 'America/New_York' }))).time_zone).toBe('America/New_York')
    expect(await refusal(f.bo.post(`/api/users/${f.ids.bo}`, { time_zone: 'Mars/Olympus' })))
      .toEqual([400, 'Time zone: This field must be a time zone name such as UTC or Europe/Paris.'])
    expect((await f.bo.post(`/api/users/${f.ids.bo}`, { time_zone: 7 })).status).toBe(400)
    expect((await f.cleo.post(`/api/users/${f.ids.bo}`, { time_zone: 'UTC' })).status).toBe(403)
    expect((await json(f.admin.post(`/api/users/${f.ids.cleo}`, { time_zone: 'Europe/Paris' }))).time_zone).toBe('Europe/Paris')
    expect((await json(f.admin.post(`/api/users/${f.ids.cleo}`, { time_zone: '' }))).time_zone).toBeNull()
    expect((await json(viewOnly.post(`/api/users/${viewOnlyId}`, { time_zone: 'Asia/Tokyo' }))).time_zone).toBe('Asia/Tokyo')
    expect((await json(f.bo.get(`/api/users/${f.ids.bo}`))).time_zone).toBe('America/New_York')
  })

  it('is a choice of the profile form among the names the server accepts', async () => {
    const html = await (await f.bo.get('/users/me')).text()
    const props = islandProps(html, 'ProfileEditor') as { user: { time_zone: string | null }; timeZones: string[] }
    expect(props.user.time_zone).toBe('America/New_York')
    expect(props.timeZones[0]).toBe('UTC')
    expect(props.timeZones).toContain('Europe/Paris')
  })

  it('plans a daily 08:00 report on that clock across a change of the clocks', async () => {
    const made = await json(f.bo.post('/api/subscriptions', { dashboard_id: board.id, schedule: { interval: 86400, time: '08:00', time_zone: 'America/New_York' } }))
    // the last Saturday of summer time in New York: 08:00 EDT is 12:00 UTC; the clocks go back on Sunday, November 1
    await f.t.db.sql`update report_subscriptions set next_send_at = '2026-10-31T12:00:00Z' where id = ${made.id}`
    await planDueReports(f.t.db.sql, new Date('2026-10-31T12:00:20Z'))
    expect((await json(f.bo.get(`/api/subscriptions/${made.id}`))).next_send_at).toBe('2026-11-01T13:00:00.000Z')
    await planDueReports(f.t.db.sql, new Date('2026-11-01T13:00:20Z'))
    expect((await json(f.bo.get(`/api/subscriptions/${made.id}`))).next_send_at).toBe('2026-11-02T13:00:00.000Z')
    const sends = await f.t.db.sql<{ due_at: Date }[]>`select due_at from report_sends where subscription_id = ${made.id} order by id`
    expect(sends.map((s) => s.due_at.toISOString())).toEqual(['2026-10-31T12:00:00.000Z', '2026-11-01T13:00:00.000Z'])
  })
})

type DialogProps = { mayShare: boolean; users: unknown[]; destinations: unknown[]; timeZone: string; userTimeZone: string | null; parameters: { dashboard: { name: string; value: unknown }[] } }
const dialogOf = async (client: Client, b: { id: number; slug: string }) =>
  islandProps(await (await client.get(`/dashboards/${b.id}-${b.slug}`)).text(), 'SubscribeDialog') as DialogProps

describe('the Subscribe dialog, by role', () => {
  it('offers an admin everyone, and their own time zone beside the organization\'s', async () => {
    await json(f.admin.post(`/api/users/${f.ids.admin}`, { time_zone: 'Europe/Paris' }))
    const props = await dialogOf(f.admin, board)
    expect(props).toMatchObject({ mayShare: true, timeZone: 'UTC', userTimeZone: 'Europe/Paris' })
    expect(props.users.length).toBeGreaterThan(3)
    expect(props.parameters.dashboard.map((d) => [d.name, d.value])).toEqual([['x', 1]])
  })

  it('offers a member others on a dashboard they edit, and themself alone on one they do not', async () => {
    expect(await dialogOf(f.bo, bosBoard)).toMatchObject({ mayShare: true, userTimeZone: 'America/New_York' })
    const theirs = await dialogOf(f.bo, board)
    expect(theirs).toMatchObject({ mayShare: false, users: [], destinations: [] })
    expect(theirs.parameters.dashboard.map((d) => d.name)).toEqual(['x'])
  })

  it('offers a view-only member themself alone; the API agrees, and takes their own time zone and values', async () => {
    const props = await dialogOf(viewOnly, board)
    expect(props).toMatchObject({ mayShare: false, users: [], userTimeZone: 'Asia/Tokyo' })
    expect((await viewOnly.post('/api/subscriptions', { dashboard_id: board.id, schedule: { interval: 86400 }, recipients: [{ user_id: f.ids.bo }] })).status).toBe(403)
    const made = await json(viewOnly.post('/api/subscriptions', {
      dashboard_id: board.id, schedule: { interval: 86400, time: '08:00', time_zone: 'Asia/Tokyo' }, parameters: { x: '2' },
    }))
    expect(made).toMatchObject({ recipients: [{ user_id: viewOnlyId }], parameters: { x: '2' }, schedule: { time_zone: 'Asia/Tokyo' } })
    // 08:00 in Tokyo is 23:00 UTC
    expect(made.next_send_at.slice(11, 16)).toBe('23:00')
  })
})
