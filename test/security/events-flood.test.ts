import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { migrate, readMigrations, connect } from '../../src/db/index.ts'
import { addUser, createTestApp, setUp, signInAs, type Client, type TestApp } from '../helpers/app.ts'
import { withDatabase } from '../helpers/global-setup.ts'

/**
 * A member flooding the audit log through POST /api/events: past 60 browser-reported events a minute (each event of a
 * batch counts) the batch is refused with 429 and Retry-After, not dropped silently; the count is kept in PostgreSQL,
 * so every web process sees it. Browser-reported events are kept SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS; what
 * Sightline records itself stays.
 */

let t: TestApp
let mo: Client
let moId: number
let bo: Client

beforeAll(async () => {
  t = await createTestApp()
  await setUp(t.app)
  moId = (await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })).id
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  mo = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
})
afterAll(() => t.close())

const views = (n: number) => Array.from({ length: n }, (_, i) => ({ action: 'view', object_type: 'query', object_id: i + 1 }))
const browserEventsOf = async (userId: number) =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from events where user_id = ${userId} and from_browser`)[0].n
/** Move a user's browser events back in time, as if they had been sent that long ago. */
const age = (userId: number, interval: string) =>
  t.db.sql`update events set created_at = created_at - ${interval}::interval where user_id = ${userId} and from_browser`

describe('POST /api/events under a flood', () => {
  it('records 60 events in a minute, and answers the 61st with 429 and Retry-After, recording nothing of it', async () => {
    for (let i = 0; i < 6; i++) expect(await (await mo.post('/api/events', views(10))).json()).toEqual({ recorded: 10 })
    const res = await mo.post('/api/events', views(1))
    expect(res.status).toBe(429)
    const wait = Number(res.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60)
    expect((await res.json()).message).toBe(`Too many events: at most 60 a minute. Please wait ${wait === 1 ? '1 second' : `${wait} seconds`} and send them again.`)
    expect(await browserEventsOf(moId)).toBe(60)
    // someone else's allowance is their own
    expect((await bo.post('/api/events', views(1))).status).toBe(200)
  })

  it('counts every event of a batch: a batch that does not fit is refused whole', async () => {
    await age(moId, '61 seconds')
    expect(await (await mo.post('/api/events', views(55))).json()).toEqual({ recorded: 55 })
    const res = await mo.post('/api/events', views(6))
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await (await mo.post('/api/events', views(5))).json()).toEqual({ recorded: 5 })
    expect(await browserEventsOf(moId)).toBe(120)
  })

  it('makes room again as events leave the minute', async () => {
    await age(moId, '61 seconds')
    expect((await mo.post('/api/events', views(60))).status).toBe(200)
  })

  it('holds across web processes: one member sending through two of them gets no more than 60 a minute', async () => {
    vi.resetModules() // a second web process: Sightline's modules afresh, nothing in memory shared with the first
    const { createApp } = await import('../../src/app.ts')
    const { createDeps } = await import('../../src/create-deps.ts')
    const other = createApp(createDeps({ sql: t.db.sql, config: t.deps.config, secretKey: t.deps.secretKey, assets: t.deps.assets, features: t.deps.features }))
    const viaOther = (body: unknown) => other.request('/api/events', {
      method: 'POST', body: JSON.stringify(body),
      headers: { cookie: [...mo.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': mo.csrf, 'content-type': 'application/json' },
    })
    await age(moId, '61 seconds')
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => mo.post('/api/events', views(10))),
      ...Array.from({ length: 4 }, () => viaOther(views(10))),
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
    expect((await viaOther(views(1))).status).toBe(429)
    await age(moId, '61 seconds')
    expect((await viaOther(views(1))).status).toBe(200)
  })

  it('refuses a batch larger than a minute allows with 400, as it could never be recorded', async () => {
    const res = await bo.post('/api/events', views(61))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain('at most 60 objects')
  })
})

describe('the browser event retention', () => {
  it('is 90 days unless SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS says otherwise', () => {
    expect(loadConfig({}).browserEventRetentionDays).toBe(90)
    expect(loadConfig({ SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS: '30' }).browserEventRetentionDays).toBe(30)
    expect(() => loadConfig({ SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS: 'forever' })).toThrow('SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS')
  })

  it('removes only browser-reported events older than the retention; sign-ins, changes and shares stay', async () => {
    await t.db.sql`delete from events`
    const [{ id: orgId }] = await t.db.sql<{ id: number }[]>`select id from organizations limit 1`
    const event = (action: string, objectType: string, fromBrowser: boolean, daysAgo: number) => ({
      org_id: orgId, user_id: moId, action, object_type: objectType, object_id: '1', from_browser: fromBrowser,
      created_at: new Date(Date.now() - daysAgo * 86_400_000),
    })
    await t.db.sql`insert into events ${t.db.sql([
      event('view', 'query', true, 91), event('execute', 'query', true, 120), event('view_source', 'query', true, 89),
      event('view', 'query', true, 0),
      event('login', 'redash', false, 400), event('edit', 'query', false, 200), event('view', 'dashboard', false, 100),
      event('create', 'api_key', false, 91),
    ])}`
    const { cleanupBrowserEvents } = await import('../../worker/tasks/cleanup_browser_events.ts')
    await cleanupBrowserEvents(t.db.sql, 90)({}, {} as never)
    const left = await t.db.sql<{ action: string; object_type: string; from_browser: boolean }[]>`
      select action, object_type, from_browser from events order by created_at`
    expect(left).toEqual([
      { action: 'login', object_type: 'redash', from_browser: false },
      { action: 'edit', object_type: 'query', from_browser: false },
      { action: 'view', object_type: 'dashboard', from_browser: false },
      { action: 'create', object_type: 'api_key', from_browser: false },
      { action: 'view_source', object_type: 'query', from_browser: true },
      { action: 'view', object_type: 'query', from_browser: true },
    ])
  })

  it('marks what a browser reports, and nothing Sightline records itself, as browser-reported', async () => {
    await t.db.sql`delete from events`
    expect((await mo.post('/api/events', [{ action: 'view', object_type: 'page', object_id: 'home' }])).status).toBe(200)
    await signInAs(t.app, 'mo@example.com', 'mo-password')
    const rows = await t.db.sql<{ action: string; from_browser: boolean }[]>`select action, from_browser from events order by id`
    expect(rows).toEqual([{ action: 'view', from_browser: true }, { action: 'login', from_browser: false }])
  })

  it('recognises the browser-reported events recorded before they were marked, so the retention applies to them too', async () => {
    const adminUrl = inject('pgAdminUrl')
    const name = `t_events_${process.pid}_${crypto.randomBytes(4).toString('hex')}`
    const root = connect(adminUrl, { max: 1 })
    await root.unsafe(`create database ${name}`)
    const sql = connect(withDatabase(adminUrl, name), { max: 2 })
    try {
      const all = readMigrations()
      const mark = all.find((m) => m.name.includes('browser_events'))!.version
      await migrate(sql, all.filter((m) => m.version < mark))
      const [org] = await sql<{ id: number }[]>`insert into organizations (name, slug) values ('Old', 'default') returning id`
      const old = (action: string, objectType: string, properties: Record<string, unknown>) =>
        ({ org_id: org.id, action, object_type: objectType, object_id: '1', additional_properties: sql.json(properties as never) })
      await sql`insert into events ${sql([
        old('view', 'query', { user_agent: 'Browser/1.0', ip: '192.0.2.1' }), old('view_source', 'query', {}), old('execute', 'query', { ip: '192.0.2.1' }),
        old('view', 'dashboard', {}), old('login', 'redash', { user_agent: 'Browser/1.0', ip: '192.0.2.1' }), old('execute_query', 'query', {}),
      ])}`
      await migrate(sql, all)
      const rows = await sql<{ action: string; object_type: string; from_browser: boolean }[]>`select action, object_type, from_browser from events order by id`
      expect(rows.map((r) => `${r.action} ${r.object_type}: ${r.from_browser}`)).toEqual([
        'view query: true', 'view_source query: true', 'execute query: true',
        'view dashboard: false', 'login redash: false', 'execute_query query: false',
      ])
    } finally {
      await sql.end({ timeout: 1 })
      await root.unsafe(`drop database if exists ${name} with (force)`)
      await root.end()
    }
  })
})
