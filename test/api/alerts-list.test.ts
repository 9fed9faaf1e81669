import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PERMISSIONS } from '../../src/permissions/index.ts'
import { addUser, signInAs, type Client } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture } from './queries-fixture.ts'

/**
 * GET /api/alerts as clients read it, byte for byte: a plain array of every alert on a query the caller may see,
 * newest first, each written exactly as GET /api/alerts/{id} writes it (query with its owner and last editor inside,
 * the alert's owner), however many alerts there are and however they are read from the database.
 * People of queries-fixture.ts: admin; bo and cleo (warehouse); vi (warehouse, and shared view-only); and outsider,
 * who may list alerts but reads no source.
 */
let f: QueryFixture
let outsider: Client
let onWarehouse: number
let onShared: number
const alerts: Record<string, number> = {}

async function text(pending: Promise<Response>) {
  const res = await pending
  const body = await res.text()
  expect(res.status, body).toBe(200)
  return { body, type: res.headers.get('content-type'), cache: res.headers.get('cache-control') }
}

const created = async (client: Client, body: Record<string, unknown>) => {
  const res = await client.post('/api/alerts', body)
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()).id as number
}

/** The list as each of its alerts answers on its own: `[` + every alert's own answer, in this order + `]`. */
async function asEachAnswers(client: Client, ids: number[]) {
  const each = await Promise.all(ids.map(async (id) => (await text(client.get(`/api/alerts/${id}`))).body))
  return `[${each.join(',')}]`
}

beforeAll(async () => {
  f = await queryFixture()
  const sql = f.t.db.sql
  const [org] = await sql<{ id: number }[]>`select id from organizations where slug = 'default'`
  const [outsiders] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions) values (${org.id}, 'Outsiders', ${DEFAULT_PERMISSIONS}) returning id`
  const user = await addUser(f.t, { name: 'Oz', email: 'oz@example.com', password: 'oz-password' })
  await sql`delete from user_groups where user_id = ${user.id}`
  await sql`insert into user_groups (user_id, group_id) values (${user.id}, ${outsiders.id})`
  outsider = (await signInAs(f.t.app, 'oz@example.com', 'oz-password')).client

  onWarehouse = (await newQuery(f.bo, {
    data_source_id: f.warehouse, query: 'select 5 as n, 2 as m', name: 'Five', description: 'Counts "five" — ünïcode',
    tags: ['ops'], schedule: { interval: 600 },
  })).id
  // an admin's edit: the query's last editor is not its owner
  const saved = await f.admin.post(`/api/queries/${onWarehouse}`, { name: 'Five <b>', version: 1 })
  expect(saved.status, await saved.clone().text()).toBe(200)
  onShared = (await newQuery(f.admin, { data_source_id: f.shared, query: 'select 7 as n', name: 'Seven' })).id
})
afterAll(() => f.t.close())

describe('GET /api/alerts', () => {
  it('is an empty array for someone with no alert to see', async () => {
    const empty = await text(f.admin.get('/api/alerts'))
    expect(empty).toEqual({ body: '[]', type: 'application/json', cache: 'no-store' })
    alerts.first = await created(f.bo, { name: 'Too many', query_id: onWarehouse, options: { column: 'n', op: '>', value: 1 } })
    expect((await text(outsider.get('/api/alerts'))).body).toBe('[]')
  })

  it('writes every alert as it answers on its own, newest first, only those on queries the caller may see', async () => {
    alerts.legacy = await created(f.bo, { name: 'Legacy', query_id: onWarehouse, options: { column: 'm', op: '<', value: 3, custom_subject: 'Ünïcode "quoted"' }, rearm: 60 })
    // a stored operator of the old kind and no selector: read as the symbol and `first`
    await f.t.db.sql`update alerts set options = options - 'selector' || '{"op": "less than"}' where id = ${alerts.legacy}`
    alerts.cleos = await created(f.cleo, { query_id: onWarehouse, options: { column: 'n', op: '==', value: 5, selector: 'max' } })
    const muted = await f.cleo.post(`/api/alerts/${alerts.cleos}/mute`)
    expect(muted.status).toBe(200)
    alerts.shared = await created(f.admin, { name: 'On shared', query_id: onShared, options: { column: 'n', op: '!=', value: 0 } })
    alerts.last = await created(f.bo, { name: 'Newest', query_id: onWarehouse, options: { column: 'n', op: '>=', value: 2 } })
    const newestFirst = [alerts.last, alerts.shared, alerts.cleos, alerts.legacy, alerts.first]

    const admin = await text(f.admin.get('/api/alerts'))
    expect(admin.type).toBe('application/json')
    expect(admin.cache).toBe('no-store')
    expect(admin.body).toBe(await asEachAnswers(f.admin, newestFirst))
    // bo and cleo do not read `shared`: its alert is left out, the rest keep their order
    const withoutShared = newestFirst.filter((id) => id !== alerts.shared)
    expect((await text(f.bo.get('/api/alerts'))).body).toBe(await asEachAnswers(f.bo, withoutShared))
    expect((await text(f.cleo.get('/api/alerts'))).body).toBe(await asEachAnswers(f.cleo, withoutShared))
    expect((await text(f.vi.get('/api/alerts'))).body).toBe(await asEachAnswers(f.vi, newestFirst))
    expect((await text(outsider.get('/api/alerts'))).body).toBe('[]')
  })

  it('shows the shape clients read: the query with its people inside, the owner, options as symbols', async () => {
    const list = JSON.parse((await text(f.admin.get('/api/alerts'))).body)
    const legacy = list.find((a: { id: number }) => a.id === alerts.legacy)
    expect(Object.keys(legacy)).toEqual([
      'id', 'name', 'options', 'state', 'last_triggered_at', 'updated_at', 'created_at', 'rearm', 'check_interval',
      'checked_at', 'check_error', 'query_id', 'user_id', 'query', 'user',
    ])
    expect(legacy).toMatchObject({
      name: 'Legacy', rearm: 60, state: 'unknown', query_id: onWarehouse, user_id: f.ids.bo,
      options: { column: 'm', op: '<', value: 3, selector: 'first', muted: false, custom_subject: 'Ünïcode "quoted"' },
      query: {
        id: onWarehouse, name: 'Five <b>', description: 'Counts "five" — ünïcode', tags: ['ops'],
        user: { id: f.ids.bo, name: 'Bo' }, last_modified_by: { id: f.ids.admin },
      },
      user: { id: f.ids.bo, email: 'bo@example.com' },
    })
    expect(legacy.user).not.toHaveProperty('api_key')
    expect(list.find((a: { id: number }) => a.id === alerts.cleos).options).toMatchObject({ selector: 'max', muted: true })
    // the query's key for its owner and admins only
    expect(legacy.query.api_key).toEqual(expect.any(String))
    const cleos = JSON.parse((await text(f.cleo.get('/api/alerts'))).body)
    expect(cleos.find((a: { id: number }) => a.id === alerts.legacy).query.api_key).toBeNull()
  })

  it('keeps the order and every comma across many alerts, ties in time newest id first', async () => {
    const sql = f.t.db.sql
    // 1,200 more, in pairs created at the same instant, a sixth of them on the query bo cannot read
    await sql`
      insert into alerts (org_id, user_id, query_id, name, options, state, created_at, updated_at)
      select a.org_id, a.user_id, case when g % 6 = 0 then ${onShared}::bigint else a.query_id end, 'Bulk ' || g, a.options,
        (array['ok', 'triggered', 'unknown'])[1 + g % 3], now() + (g / 2) * interval '1 second', now()
      from alerts a, generate_series(1, 1200) g where a.id = ${alerts.first}`
    const expected = async (userSees: boolean) => (await sql<{ id: number }[]>`
      select id from alerts where ${userSees ? sql`true` : sql`query_id <> ${onShared}`} order by created_at desc, id desc`).map((r) => Number(r.id))

    const admin = await text(f.admin.get('/api/alerts'))
    const adminIds = JSON.parse(admin.body).map((a: { id: number }) => a.id)
    expect(adminIds).toEqual(await expected(true))
    const bo = JSON.parse((await text(f.bo.get('/api/alerts'))).body).map((a: { id: number }) => a.id)
    expect(bo).toEqual(await expected(false))
    expect(bo.length).toBe(5 - 1 + 1000)
    // a few from each stretch, written as on their own, at the same place
    const sample = [0, 1, 499, 500, 501, 999, 1000, adminIds.length - 1].map((i) => adminIds[i])
    const each = JSON.parse(await asEachAnswers(f.admin, sample))
    const listed = JSON.parse(admin.body)
    expect(sample.map((id) => listed.find((a: { id: number }) => a.id === id))).toEqual(each)
    expect(admin.body.startsWith('[{"id":')).toBe(true)
    expect(admin.body.endsWith('}]')).toBe(true)
  })

  it('hands its connection back when the reader leaves after the first part, however often', async () => {
    for (let i = 0; i < 15; i++) {
      const res = await f.admin.get('/api/alerts')
      const reader = res.body!.getReader()
      // '[' and the first batch of alerts, then no more
      let read = 0
      while (read < 1000) {
        const { done, value } = await reader.read()
        expect(done).toBe(false)
        read += value!.byteLength
      }
      await reader.cancel()
    }
    const whole = JSON.parse((await text(f.admin.get('/api/alerts'))).body)
    expect(whole.length).toBe(5 + 1200)
  })
})
