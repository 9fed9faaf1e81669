import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { splitHostParameter } from '../../src/db/index.ts'
import type { CacheTopic } from '../../src/db/index.ts'
import { createTestApp, runJobs, type TestApp } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from '../api/queries-fixture.ts'

/**
 * Every web process remembers the share tokens it has found, and what each opens. Turning sharing off closes the
 * public page at once in every process (the cache bus), and turning it on again gives a new token that works
 * everywhere while the old one stays closed. So does any change to what the page shows by rights, whoever writes it
 * (a statement on another connection: the tables' triggers tell every process at its commit).
 */
let f: QueryFixture
let other: TestApp
let q: QueryJson
let dashboardId: number

const ok = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

/** What a stranger holding the token reaches on one process: the page, its JSON shape, a chart's stored result. */
async function reach(t: TestApp, token: string) {
  const keyed = { headers: { authorization: `Key ${token}` } }
  return {
    page: (await t.app.request(`/public/dashboards/${token}`)).status,
    shape: (await t.app.request(`/api/dashboards/public/${token}`)).status,
    result: (await t.app.request(`/api/queries/${q.id}/results.json`, keyed)).status,
  }
}
const open = { page: 200, shape: 200, result: 200 }
const closed = { page: 404, shape: 404, result: 404 }

async function share(): Promise<string> {
  return (await ok(f.bo.post(`/api/dashboards/${dashboardId}/share`))).api_key as string
}
/** Resolves once the process has heard of a change to this topic and id through the bus. */
const heard = (t: TestApp, topic: CacheTopic, id: number) =>
  new Promise<void>((resolve) => t.deps.bus.on(topic, (heardId) => heardId === String(id) && resolve()))

/** A write on a connection of its own, not through Sightline, then both processes have heard of it. */
async function writeElsewhere(topic: CacheTopic, id: number, write: (sql: postgres.Sql) => Promise<unknown>) {
  const both = Promise.all([heard(f.t, topic, id), heard(other, topic, id)])
  const { url, host } = splitHostParameter(f.t.db.url)
  const elsewhere = postgres(url, { ...(host ? { host } : {}), max: 1, onnotice: () => {} })
  try {
    await write(elsewhere)
  } finally {
    await elsewhere.end()
  }
  await both
}

/** Turn sharing off as Bo, once the other process has heard of it. */
async function unshare() {
  const heardThere = heard(other, 'share', dashboardId)
  expect((await f.bo.request('DELETE', `/api/dashboards/${dashboardId}/share`)).status).toBe(200)
  await heardThere
}

beforeAll(async () => {
  f = await queryFixture()
  // a second web process on the same database: it hears of unsharing only through the bus
  other = await createTestApp({}, { db: f.t.db })
  q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Orders', query: 'select 3 as orders' })
  await ok(f.bo.post(`/api/queries/${q.id}/results`, { max_age: 0 }))
  await runJobs(f.t)
  const d = await ok(f.bo.post('/api/dashboards', { name: 'Orders board' }))
  dashboardId = d.id
  await ok(f.bo.post('/api/widgets', { dashboard_id: d.id, visualization_id: (q.visualizations as { id: number }[])[0].id, options: {} }))
  await ok(f.bo.post(`/api/dashboards/${d.id}`, { is_draft: false }))
}, 60_000)
afterAll(async () => {
  await other?.deps.bus.stop()
  await other?.deps.executionsDone.stop()
  await f?.t.close()
})

describe('share tokens across web processes', () => {
  it('closes the public page at once in every process when sharing is turned off', async () => {
    const token = await share()
    // both processes have found (and remember) the token
    expect(await reach(f.t, token)).toEqual(open)
    expect(await reach(other, token)).toEqual(open)
    expect(await reach(other, token)).toEqual(open)
    await unshare()
    expect(await reach(other, token)).toEqual(closed)
    expect(await reach(f.t, token)).toEqual(closed)
  })

  it('opens a new token when sharing is turned on again, and the old one stays closed everywhere', async () => {
    const old = await share()
    expect(await reach(other, old)).toEqual(open)
    await unshare()
    const renewed = await share()
    expect(renewed).not.toBe(old)
    for (const t of [other, f.t]) {
      expect(await reach(t, renewed)).toEqual(open)
      expect(await reach(t, old)).toEqual(closed)
    }
  })
})

describe('what a remembered token opens', () => {
  let token: string
  beforeAll(async () => {
    token = await share()
  })

  it('closes at once in the process that turned sharing off, without waiting for any message', async () => {
    const renewed = await share()
    expect(await reach(f.t, renewed)).toEqual(open)
    expect((await f.bo.request('DELETE', `/api/dashboards/${dashboardId}/share`)).status).toBe(200)
    expect(await reach(f.t, renewed)).toEqual(closed)
    token = await share()
  })

  it('closes everywhere when another connection revokes the token, and when it archives or deletes the dashboard', async () => {
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
    await writeElsewhere('share', dashboardId, (sql) => sql`update dashboards set is_archived = true where id = ${dashboardId}`)
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(closed)
    await writeElsewhere('share', dashboardId, (sql) => sql`update dashboards set is_archived = false where id = ${dashboardId}`)
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
    await writeElsewhere('share', dashboardId, (sql) => sql`update api_keys set active = false where object_type = 'dashboards' and object_id = ${dashboardId}`)
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(closed)
    token = await share()
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
    const gone = await ok(f.bo.post('/api/dashboards', { name: 'Gone board' }))
    const goneToken = (await ok(f.bo.post(`/api/dashboards/${gone.id}/share`))).api_key as string
    for (const t of [f.t, other]) expect((await t.app.request(`/public/dashboards/${goneToken}`)).status).toBe(200)
    await writeElsewhere('share', gone.id, (sql) => sql`delete from dashboards where id = ${gone.id}`)
    for (const t of [f.t, other]) expect((await t.app.request(`/public/dashboards/${goneToken}`)).status).toBe(404)
  })

  it('closes at once when its dashboard is archived through the API, and opens again when it is unarchived', async () => {
    expect(await reach(f.t, token)).toEqual(open)
    const heardThere = heard(other, 'share', dashboardId)
    await ok(f.bo.request('DELETE', `/api/dashboards/${dashboardId}`))
    expect(await reach(f.t, token)).toEqual(closed)
    await heardThere
    expect(await reach(other, token)).toEqual(closed)
    await ok(f.bo.post(`/api/dashboards/${dashboardId}`, { is_archived: false }))
    expect(await reach(f.t, token)).toEqual(open)
  })

  it('follows its creator: disabled or out of the groups that may see the query, the token opens nothing of it', async () => {
    const boId = f.ids.bo
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
    await writeElsewhere('user', boId, (sql) => sql`update users set disabled_at = now() where id = ${boId}`)
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(closed)
    await writeElsewhere('user', boId, (sql) => sql`update users set disabled_at = null where id = ${boId}`)
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
    const groups = await f.t.db.sql<{ group_id: number }[]>`select group_id from user_groups where user_id = ${boId}`
    await writeElsewhere('user', boId, (sql) => sql`delete from user_groups where user_id = ${boId}`)
    for (const t of [f.t, other]) expect((await reach(t, token)).result).toBe(404)
    await writeElsewhere('user', boId, (sql) => sql`insert into user_groups ${sql(groups.map((g) => ({ user_id: boId, group_id: g.group_id })))}`)
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
  })

  it('closes everywhere when the organization turns public URLs off', async () => {
    const [{ org_id: orgId }] = await f.t.db.sql<{ org_id: number }[]>`select org_id from dashboards where id = ${dashboardId}`
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
    const setting = (on: boolean) => (sql: postgres.Sql) =>
      sql`update organizations set settings = settings || ${sql.json({ disable_public_urls: on })} where id = ${orgId}`
    await writeElsewhere('org', orgId, setting(true))
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(closed)
    await writeElsewhere('org', orgId, setting(false))
    for (const t of [f.t, other]) expect(await reach(t, token)).toEqual(open)
  })

  it('is served with no lookup once found, and a share token is never looked up as a user\'s key', async () => {
    // a third process whose every statement is seen
    const statements: string[] = []
    const { url, host } = splitHostParameter(f.t.db.url)
    const counted = postgres(url, {
      ...(host ? { host } : {}), max: 2, onnotice: () => {}, debug: (_connection, query) => { statements.push(String(query)) },
      types: { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
    }) as never
    const third = await createTestApp({}, { db: { url: f.t.db.url, sql: counted, drop: async () => {} } })
    try {
      // a key is found by its hash: as a share token, or as a user's key (joined to its user)
      const keyLookups = () => statements.filter((s) => /\bkey_hash = \$/.test(s))
      // a stranger opens the page: its token is found once
      expect((await third.app.request(`/public/dashboards/${token}`)).status).toBe(200)
      expect(keyLookups()).toHaveLength(1)
      expect(keyLookups()[0]).not.toMatch(/\bjoin users\b/)
      statements.length = 0
      // then the page's scripts call with it, and others open the page: no key is looked up again, as no user's
      const keyed = { headers: { authorization: `Key ${token}` } }
      expect(await reach(third, token)).toEqual(open)
      expect((await third.app.request(`/public/dashboards/${token}`, keyed)).status).toBe(200)
      expect((await third.app.request(`/api/dashboards/public/${token}`, keyed)).status).toBe(200)
      expect(keyLookups()).toEqual([])
    } finally {
      await third.deps.bus.stop()
      await third.deps.executionsDone.stop()
      await (counted as postgres.Sql).end()
    }
  })
})
