import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyHash } from '../../src/credentials/index.ts'
import { fakeOrigin, type FakeOrigin } from '../fixtures/redash/handlers.ts'
import { ADMIN_KEY, buildInstance, MEMBER_KEY, queryKey, shareKey, userKey, type RedashVersion } from '../fixtures/redash/instance.ts'
import { addUser, Client, createTestApp, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Import from a running instance of the established tool (v8, v10, v25.8 shapes, faked at the HTTP boundary): what
 * comes across, a second run that updates, a dry run that writes nothing, kept ids, and the failures that are
 * reported with nothing written.
 */
const server = setupServer()
const origins: Record<string, FakeOrigin> = {}
for (const version of ['8.0.0', '10.1.0', '25.8.0'] as RedashVersion[]) {
  // two items a page, so every list is read across several pages
  origins[version] = fakeOrigin(`http://redash-${version.split('.')[0]}.test`, buildInstance(version), { maxPageSize: 2 })
  server.use(...origins[version].handlers)
}
// an instance whose answers break a write half-way (a version past PostgreSQL's integer), then are mended
const broken = buildInstance('10.1.0')
server.use(...fakeOrigin('http://redash-broken.test', broken).handlers)
server.use(http.get('http://garbage.test/*', () => new HttpResponse('<html>Welcome to nginx</html>', { headers: { 'content-type': 'text/html' } })))
const urlOf = (version: string) => `http://redash-${version.split('.')[0]}.test`

beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => { for (const o of Object.values(origins)) expect(o.writes).toEqual([]) })
afterAll(() => server.close())

async function fresh(): Promise<{ t: TestApp; admin: Client }> {
  const t = await createTestApp()
  return { t, admin: await setUp(t.app) }
}

async function importRun(t: TestApp, admin: Client, body: Record<string, unknown>) {
  const res = await admin.post('/api/imports', body)
  expect(res.status, await res.clone().text()).toBe(202)
  const started = await res.json()
  expect(started.status).toBe('queued')
  await runJobs(t)
  return (await admin.get(`/api/imports/${started.id}`)).json()
}

const count = async (t: TestApp, table: string) => Number((await t.db.sql`select count(*)::int as n from ${t.db.sql(table)}`)[0].n)

describe('an import from v10', () => {
  let t: TestApp
  let admin: Client
  let run: any
  beforeAll(async () => {
    ;({ t, admin } = await fresh())
    run = await importRun(t, admin, { from_url: urlOf('10.1.0'), api_key: ADMIN_KEY })
  })
  afterAll(() => t.close())

  it('ends done with the version and a report per kind, and never shows the key back', async () => {
    expect(run.status, run.error).toBe('done')
    expect(run.origin_version).toBe('10.1.0')
    expect(run.report.kinds.queries.brought).toBe(7)
    expect(run.progress.queries).toEqual({ done: 7, total: 7 })
    const list = await (await admin.get('/api/imports')).text()
    expect(list).not.toContain(ADMIN_KEY)
    expect(JSON.stringify(run)).not.toContain(ADMIN_KEY)
    const [row] = await t.db.sql`select api_key_sealed from imports`
    expect(row.api_key_sealed).toBeNull()
  })

  it('brings users pending without a password or a mail, disabled ones disabled, with their API keys', async () => {
    const users = await t.db.sql`select email, password_hash, is_invitation_pending, disabled_at from users where email like '%@old.example' order by email`
    expect(users.map((u) => u.email)).toEqual(['admin@old.example', 'user2@old.example', 'user3@old.example', 'user4@old.example', 'user5@old.example'])
    expect(users.every((u) => u.password_hash === null && u.is_invitation_pending)).toBe(true)
    expect(users.find((u) => u.email === 'user3@old.example')!.disabled_at).not.toBeNull()
    expect(await count(t, 'user_tokens')).toBe(0)
    const [key] = await t.db.sql`select u.email from api_keys k join users u on u.id = k.user_id where k.key_hash = ${apiKeyHash(userKey(2))} and k.active`
    expect(key.email).toBe('user2@old.example')
  })

  it('matches groups by name, with members and view-only source rights', async () => {
    const [analysts] = await t.db.sql`select id from groups where name = 'Analysts'`
    const members = await t.db.sql`select u.email from user_groups ug join users u on u.id = ug.user_id where ug.group_id = ${analysts.id}`
    expect(members.map((m) => m.email)).toEqual(['user2@old.example'])
    const [grant] = await t.db.sql`select ds.name, g.view_only from data_source_groups g join data_sources ds on ds.id = g.data_source_id where g.group_id = ${analysts.id}`
    expect(grant).toEqual({ name: 'Warehouse', view_only: true })
    expect(await t.db.sql`select 1 from groups where name = 'admin'`).toHaveLength(1)
  })

  it('keeps sources with their options, a kind Sightline lacks as it was, and lists secrets to fill in', async () => {
    const [pg] = await t.db.sql`select type, options, secrets from data_sources where name = 'Warehouse'`
    expect(pg.type).toBe('pg')
    expect(pg.options).toMatchObject({ host: '127.0.0.1', dbname: 'sales', user: 'redash' })
    expect(pg.options.password).toBeUndefined()
    const [lacking] = await t.db.sql`select type, options from data_sources where name = 'Old SQL Server'`
    expect(lacking.type).toBe('mssql')
    const fill = run.report.kinds.data_sources.fill_in.map((f: any) => `${f.name}:${f.what.split(' ')[0]}`)
    expect(fill).toEqual(expect.arrayContaining(['Warehouse:password', 'Old SQL Server:password']))
    expect(run.report.kinds.destinations.fill_in.map((f: any) => f.what.split(' ')[0])).toEqual(['password'])
  })

  it('brings queries with dropdowns, references, schedules, tags, drafts and archived state remapped', async () => {
    const ids = new Map((await t.db.sql`select new_id, old_id from import_ids where kind = 'queries'`).map((r) => [Number(r.old_id), Number(r.new_id)]))
    const q = async (old: number) => (await t.db.sql`select * from queries where id = ${ids.get(old)!}`)[0]
    const q1 = await q(1)
    expect(q1.options.parameters[0]).toEqual({ name: 'pick', title: 'Pick', type: 'query', queryId: ids.get(2), value: null })
    expect(q1.schedule).toEqual({ interval: 3600, time: null, day_of_week: null, until: null })
    expect(q1.tags).toEqual(['sales', 'daily'])
    expect(q1.description).toBe('The first')
    expect((await q(2)).schedule).toMatchObject({ interval: 86400, time: '14:30' })
    expect((await q(4)).query).toBe(`select * from query_${ids.get(1)} join cached_query_${ids.get(2)} on true join param_query_${ids.get(1)}_{x=1} on true -- query_10`)
    expect((await q(5)).is_archived).toBe(true)
    expect((await q(6)).is_draft).toBe(true)
    expect((await q(7)).is_draft).toBe(false)
    expect((await q(1)).api_key_hash).toEqual(apiKeyHash(queryKey(1)))
    const [acl] = await t.db.sql`select u.email from access_permissions a join users u on u.id = a.grantee_id where a.object_type = 'query' and a.object_id = ${ids.get(1)!}`
    expect(acl.email).toBe('user2@old.example')
  })

  it('runs a query on a source type Sightline lacks with a message saying so', async () => {
    const [id] = await t.db.sql`select new_id from import_ids where kind = 'queries' and old_id = '3'`
    const res = await admin.post(`/api/queries/${id.new_id}/results`, { max_age: 0 })
    const body = JSON.stringify(await res.json())
    if (res.status === 200 && body.includes('"job"')) {
      await runJobs(t)
    }
    const [execution] = await t.db.sql`select error from executions where query_id = ${id.new_id} order by created_at desc limit 1`
    expect(String(execution?.error ?? body)).toMatch(/Unknown data source type: mssql/)
  })

  it('brings every kind of visualization, naming in the report the ones Sightline cannot draw', async () => {
    expect(await t.db.sql`select 1 from visualizations where type = 'BOXPLOT'`).toHaveLength(1)
    const [chart] = await t.db.sql`select options from visualizations where type = 'CHART' limit 1`
    expect(chart.options).toMatchObject({ globalSeriesType: 'column', columnMapping: { name: 'x', n: 'y' } })
    expect(run.report.kinds.visualizations.notes.join('\n')).toMatch(/BOXPLOT/)
  })

  it('brings dashboards with options, filters and share tokens; widgets placed, a restricted one skipped', async () => {
    const [d1] = await t.db.sql`select * from dashboards where slug = 'dashboard-1'`
    expect(d1.options).toEqual({ parameters: [{ name: 'pick', value: 'a' }], globalParamOrder: ['pick'] })
    expect(d1.dashboard_filters_enabled).toBe(true)
    expect(d1.tags).toEqual(['exec'])
    const widgets = await t.db.sql`select visualization_id, text, options from widgets where dashboard_id = ${d1.id} order by id`
    expect(widgets).toHaveLength(3)
    expect(widgets[0].options.position).toMatchObject({ col: 0, sizeX: 3, row: 0 })
    expect(widgets[1].text).toContain('## Notes')
    // the widget with `{}` options goes to the lowest free place beside the others
    expect(widgets[2].options.position).toMatchObject({ sizeX: 3, autoHeight: false })
    expect(run.report.kinds.widgets.skipped).toEqual([expect.objectContaining({ why: expect.stringMatching(/hid/) })])
    const res = await new Client(t.app).get(`/api/dashboards/public/${shareKey(1)}`)
    expect(res.status).toBe(200)
    expect((await res.json()).name).toBe('Dashboard 1')
  })

  it('brings alerts with legacy operators named as today, subscriptions, snippets and favourites', async () => {
    const [a1] = await t.db.sql`select options, rearm, id from alerts where name = 'Alert 1'`
    expect(a1.options).toMatchObject({ op: '>', selector: 'first', muted: false, custom_subject: 'Alert!' })
    expect(a1.rearm).toBe(3600)
    expect(await t.db.sql`select 1 from alert_subscriptions where alert_id = ${a1.id}`).toHaveLength(2)
    expect(await t.db.sql`select 1 from query_snippets where trigger = 'sel'`).toHaveLength(1)
    const favs = await t.db.sql`select f.object_type from favorites f join users u on u.id = f.user_id where u.email = 'user2@old.example' order by 1`
    expect(favs.map((f) => f.object_type)).toEqual(['dashboard', 'query'])
  })

  it('queues a run of every query shown on a dashboard', () => {
    expect(run.report.refreshes_queued).toBeGreaterThan(0)
  })

  it('a second run updates instead of duplicating', async () => {
    const before = await Promise.all(['users', 'queries', 'visualizations', 'dashboards', 'widgets', 'alerts', 'alert_subscriptions', 'api_keys', 'favorites', 'access_permissions'].map((x) => count(t, x)))
    const again = await importRun(t, admin, { from_url: urlOf('10.1.0') + '/', api_key: ADMIN_KEY })
    expect(again.status, again.error).toBe('done')
    expect(again.report.kinds.queries).toMatchObject({ brought: 0, updated: 7 })
    expect(again.report.kinds.dashboards).toMatchObject({ brought: 0, updated: 3 })
    const after = await Promise.all(['users', 'queries', 'visualizations', 'dashboards', 'widgets', 'alerts', 'alert_subscriptions', 'api_keys', 'favorites', 'access_permissions'].map((x) => count(t, x)))
    expect(after).toEqual(before)
  })

  it('refuses members and strangers, and bad bodies with a message', async () => {
    await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })
    const member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
    expect((await member.post('/api/imports', { from_url: urlOf('10.1.0'), api_key: ADMIN_KEY })).status).toBe(403)
    expect((await member.get('/api/imports')).status).toBe(403)
    expect((await member.get('/admin/import')).status).toBe(403)
    const page = await (await admin.get('/admin/import')).text()
    expect(page).toContain('data-name="ImportRunner"')
    expect(page).toContain(urlOf('10.1.0'))
    expect((await new Client(t.app).get('/api/imports')).status).toBe(401)
    const bad = await admin.post('/api/imports', { from_url: 'ftp://x', api_key: 'k' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toMatch(/from_url/)
    expect((await admin.post('/api/imports', { api_key: 'k' })).status).toBe(400)
    expect((await admin.get('/api/imports/999999')).status).toBe(404)
  })
})

describe('other versions and options', () => {
  it('reads v8 (dashboards by slug, string schedules, alerts without mute or selector), positions kept', async () => {
    const { t, admin } = await fresh()
    try {
      const run = await importRun(t, admin, { from_url: urlOf('8.0.0'), api_key: ADMIN_KEY })
      expect(run.status, run.error).toBe('done')
      expect(run.report.kinds.dashboards.brought).toBe(3)
      const [q2] = await t.db.sql`select schedule from queries where name like 'Names%'`
      expect(q2.schedule).toEqual({ interval: 86400, time: '14:30', day_of_week: null, until: null })
      const [d1] = await t.db.sql`select id, options from dashboards where slug = 'dashboard-1'`
      expect(d1.options).toEqual({})
      const [w] = await t.db.sql`select options from widgets where dashboard_id = ${d1.id} order by id limit 1`
      expect(w.options.position).toMatchObject({ col: 0, sizeX: 3 })
      const [a2] = await t.db.sql`select options from alerts where name = 'Alert 2'`
      expect(a2.options).toMatchObject({ muted: false, selector: 'first' })
    } finally {
      await t.close()
    }
  })

  it('halves columns and widths from v25.8 (12 columns), rounding col down and width up', async () => {
    const { t, admin } = await fresh()
    try {
      const run = await importRun(t, admin, { from_url: urlOf('25.8.0'), api_key: ADMIN_KEY, keep_ids: true })
      expect(run.status, run.error).toBe('done')
      const widgets = await t.db.sql`select options from widgets where dashboard_id = 2 order by id`
      expect(widgets.map((w) => [w.options.position.col, w.options.position.sizeX])).toEqual([[0, 3], [3, 3], [0, 3], [3, 3]])
      expect(widgets[0].options.position).toMatchObject({ minSizeX: 1, maxSizeX: 6 })
      // kept ids on an empty Sightline: old links work
      expect((await t.db.sql`select id from queries order by id`).map((r) => Number(r.id))).toEqual([1, 2, 3, 4, 5, 6, 7])
      expect((await t.db.sql`select name from dashboards where id = 2`)[0].name).toContain('Ops')
      const [a1] = await t.db.sql`select options from alerts where id = 1`
      expect(a1.options.selector).toBe('max')
      // new objects after kept ids get ids past them
      const res = await admin.post('/api/queries', { data_source_id: (await t.db.sql`select id from data_sources where name = 'Warehouse'`)[0].id, query: 'select 1', name: 'New' })
      expect((await res.json()).id).toBeGreaterThan(7)
    } finally {
      await t.close()
    }
  })

  it('writes nothing in a dry run, and reports what would come across', async () => {
    const { t, admin } = await fresh()
    try {
      const before = await Promise.all(['users', 'groups', 'data_sources', 'queries', 'dashboards', 'alerts', 'import_ids', 'api_keys'].map((x) => count(t, x)))
      const run = await importRun(t, admin, { from_url: urlOf('10.1.0'), api_key: ADMIN_KEY, dry_run: true })
      expect(run.status, run.error).toBe('done')
      expect(run.dry_run).toBe(true)
      expect(run.report.kinds.queries.brought).toBe(7)
      const after = await Promise.all(['users', 'groups', 'data_sources', 'queries', 'dashboards', 'alerts', 'import_ids', 'api_keys'].map((x) => count(t, x)))
      expect(after).toEqual(before)
    } finally {
      await t.close()
    }
  })

  it('leaves nothing half-written when a write fails half-way, and the next run brings everything', async () => {
    const { t, admin } = await fresh()
    try {
      const tables = ['users', 'groups', 'data_sources', 'queries', 'visualizations', 'dashboards', 'import_ids', 'api_keys']
      const before = await Promise.all(tables.map((x) => count(t, x)))
      broken.queries[6].version = 2 ** 40
      const failed = await importRun(t, admin, { from_url: 'http://redash-broken.test', api_key: ADMIN_KEY })
      expect(failed.status).toBe('failed')
      expect(failed.error).toMatch(/wrote nothing/)
      expect(await Promise.all(tables.map((x) => count(t, x)))).toEqual(before)
      broken.queries[6].version = 3
      const resumed = await importRun(t, admin, { from_url: 'http://redash-broken.test', api_key: ADMIN_KEY })
      expect(resumed.status, resumed.error).toBe('done')
      expect(resumed.report.kinds.queries).toMatchObject({ brought: 7, updated: 0 })
      expect(await t.db.sql`select version from queries where name = 'Query 7'`).toEqual([{ version: 3 }])
    } finally {
      await t.close()
    }
  })

  it('reports an unreachable instance, a member key, an unknown key and a garbage answer, writing nothing', async () => {
    const { t, admin } = await fresh()
    try {
      const before = await Promise.all(['users', 'queries', 'data_sources', 'import_ids'].map((x) => count(t, x)))
      const cases: [string, string, RegExp][] = [
        ['http://127.0.0.1:1', ADMIN_KEY, /did not answer/],
        [urlOf('10.1.0'), MEMBER_KEY, /admin/],
        [urlOf('10.1.0'), 'not-a-key-of-this-instance', /refused the key/],
        ['http://garbage.test', ADMIN_KEY, /not JSON/],
      ]
      for (const [from_url, api_key, message] of cases) {
        const run = await importRun(t, admin, { from_url, api_key })
        expect(run.status, from_url).toBe('failed')
        expect(run.error).toMatch(message)
        expect(JSON.stringify(run)).not.toContain(api_key)
      }
      const after = await Promise.all(['users', 'queries', 'data_sources', 'import_ids'].map((x) => count(t, x)))
      expect(after).toEqual(before)
    } finally {
      await t.close()
    }
  })
})
