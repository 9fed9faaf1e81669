import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryHash } from '../../src/executions/index.ts'
import { savedQueryHash } from '../../src/queries/index.ts'
import { Client } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, storeResult, type QueryFixture } from './queries-fixture.ts'

let f: QueryFixture
beforeAll(async () => {
  f = await queryFixture()
})
afterAll(() => f.t.close())

const DROPDOWN =
  'You are trying to associate a dropdown query that does not have a matching group. Please verify the dropdown query id you are trying to associate with this query.'
const CONFLICT = 'It seems like the query has been modified by another user. Please copy/backup your changes and reload this page.'

describe('create', () => {
  it('refuses anonymous callers with 401', async () => {
    const anonymous = new Client(f.t.app)
    expect((await anonymous.get('/api/queries')).status).toBe(401)
    expect((await anonymous.post('/api/queries', { data_source_id: f.warehouse, query: 'select 1' })).status).toBe(401)
    expect((await anonymous.get('/api/queries/1')).status).toBe(401)
  })

  it('refuses bad input with a message naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ query: 'select 1' }, 'data_source_id: This field is required.'],
      [{ data_source_id: f.warehouse }, 'query: This field is required.'],
      [{ data_source_id: 'abc', query: 'x' }, 'data_source_id must be a positive whole number.'],
      [{ data_source_id: f.warehouse, query: 5 }, 'query must be text.'],
      [{ data_source_id: f.warehouse, query: 'x', tags: 'a,b' }, 'tags must be a list of texts.'],
      [{ data_source_id: f.warehouse, query: 'x', description: 'd'.repeat(4097) }, 'description is too long (at most 4096 characters).'],
      [{ data_source_id: f.warehouse, query: 'x', options: [] }, 'options must be an object.'],
      [{ data_source_id: f.warehouse, query: 'x', options: { parameters: {} } }, 'options.parameters must be a list'],
      [{ data_source_id: f.warehouse, query: 'x', options: { parameters: [{ title: 'no name' }] } }, 'options.parameters must be a list'],
      [{ data_source_id: f.warehouse, query: 'x', schedule: { interval: -5 } }, 'schedule.interval must be a positive whole number of seconds.'],
      [{ data_source_id: f.warehouse, query: 'x', schedule: { interval: 60, time: '25:00' } }, "schedule.time must be 'HH:mm' (UTC) or null."],
      [{ data_source_id: f.warehouse, query: 'x', schedule: { interval: 604800, day_of_week: 'Funday' } }, 'schedule.day_of_week must be one of Monday'],
      [{ data_source_id: f.warehouse, query: 'x', schedule: { interval: 60, until: '2024-02-30' } }, "schedule.until must be a date 'YYYY-MM-DD' or null."],
      [{ data_source_id: f.warehouse, query: 'x', schedule: '12:00' }, 'schedule must be an object'],
      [{ data_source_id: f.warehouse, query: 'a\u0000b' }, 'Text must not contain NUL characters.'],
      [[1, 2], 'The request body must be a JSON object.'],
      [{ data_source_id: 999999, query: 'x' }, 'Data source not found.'],
    ]
    for (const [body, message] of cases) {
      const [status, text] = await refusal(f.bo.post('/api/queries', body))
      expect([status, text]).toEqual([400, expect.stringContaining(message)])
    }
    const res = await f.bo.request('POST', '/api/queries', { headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
  })

  it('needs create_query and full access to the source', async () => {
    expect(await refusal(f.lou.post('/api/queries', { data_source_id: f.warehouse, query: 'select 1' }))).toEqual([403, expect.any(String)])
    const [status, message] = await refusal(f.vi.post('/api/queries', { data_source_id: f.shared, query: 'select 1' }))
    expect(status).toBe(403)
    expect(message).toMatch(/data source/)
    // a source none of Bo's groups has: 403, as the established tool answers (decision 0024)
    expect(await refusal(f.bo.post('/api/queries', { data_source_id: f.shared, query: 'select 1' }))).toEqual([403, "You don't have access to this data source."])
  })

  it('creates a draft with a table visualization, the caller as owner, and the newest matching result', async () => {
    const hash = savedQueryHash('select 42', { apply_auto_limit: true }, 'pg')
    expect(hash).toBe(queryHash('select 42 LIMIT 1000'))
    await storeResult(f.t, f.warehouse, hash, { retrievedAt: '2024-01-01T00:00:00Z' })
    const newest = await storeResult(f.t, f.warehouse, hash, { runtime: 1.25, retrievedAt: '2024-06-01T00:00:00Z' })
    await storeResult(f.t, f.shared, hash, { retrievedAt: '2025-01-01T00:00:00Z' })
    const q = await newQuery(f.bo, {
      data_source_id: f.warehouse, query: 'select 42', options: { apply_auto_limit: true }, tags: [' sales ', 'sales', '', 'kpi'],
      is_draft: false, id: 12345, api_key: 'mine', description: 'The answer',
    })
    expect(q).toMatchObject({
      name: 'New Query', description: 'The answer', query: 'select 42', query_hash: hash, data_source_id: f.warehouse,
      is_draft: true, is_archived: false, is_safe: true, version: 1, tags: ['sales', 'kpi'], schedule: null,
      latest_query_data_id: newest, runtime: 1.25, retrieved_at: '2024-06-01T00:00:00.000Z',
      can_edit: true, is_favorite: false, user: { id: f.ids.bo, name: 'Bo' }, last_modified_by: { id: f.ids.bo },
    })
    expect(q.id).not.toBe(12345)
    expect(q.api_key).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(q.user).not.toHaveProperty('api_key')
    expect(q.visualizations).toEqual([expect.objectContaining({ type: 'TABLE', name: 'Table', description: '', options: {} })])
  })

  it('marks a query with a text (or unknown) parameter as unsafe', async () => {
    const params = (type: string) => ({ parameters: [{ name: 'p', title: 'P', type, value: '1' }] })
    expect((await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select {{p}}', options: params('number') })).is_safe).toBe(true)
    expect((await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select {{p}}', options: params('text') })).is_safe).toBe(false)
    expect((await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select {{p}}', options: params('sparkline') })).is_safe).toBe(false)
  })

  it('lets dropdown parameters use only queries the caller can see', async () => {
    const hidden = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1' })
    const dropdown = (queryId: unknown) => ({ parameters: [{ name: 'region', type: 'query', queryId }] })
    const visible = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 2' })
    expect((await f.bo.post('/api/queries', { data_source_id: f.warehouse, query: 'x', options: dropdown(visible.id) })).status).toBe(200)
    expect(await refusal(f.bo.post('/api/queries', { data_source_id: f.warehouse, query: 'x', options: dropdown(hidden.id) }))).toEqual([403, DROPDOWN])
    expect(await refusal(f.bo.post('/api/queries', { data_source_id: f.warehouse, query: 'x', options: dropdown(987654) }))).toEqual([400, DROPDOWN])
    expect(await refusal(f.bo.post('/api/queries', { data_source_id: f.warehouse, query: 'x', options: dropdown('abc') }))).toEqual([400, DROPDOWN])
  })
})

describe('read', () => {
  it('shows a query to whoever sees its source, view-only included; 404 to everyone else', async () => {
    const q = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 3', name: 'Shared numbers' })
    const seen = await (await f.vi.get(`/api/queries/${q.id}`)).json()
    expect(seen).toMatchObject({ id: q.id, name: 'Shared numbers', can_edit: false, user: { id: f.ids.admin } })
    expect(await refusal(f.cleo.get(`/api/queries/${q.id}`))).toEqual([404, expect.any(String)])
    expect((await f.cleo.get('/api/queries/99999999')).status).toBe(404)
    expect((await f.cleo.get('/api/queries/abc')).status).toBe(404)
  })

  it('answers 404 for a query of another organization', async () => {
    const sql = f.t.db.sql
    const [org] = await sql<{ id: number }[]>`insert into organizations (name, slug) values ('Other', 'other') returning id`
    const [user] = await sql<{ id: number }[]>`insert into users (org_id, name, email) values (${org.id}, 'Olga', 'olga@other.example') returning id`
    const [other] = await sql<{ id: number }[]>`
      insert into queries (org_id, user_id, api_key_hash, query) values (${org.id}, ${user.id}, sha256('other-org-key'), 'select 1') returning id`
    expect((await f.admin.get(`/api/queries/${other.id}`)).status).toBe(404)
    expect((await f.admin.post(`/api/queries/${other.id}`, { name: 'Mine now' })).status).toBe(404)
    expect((await f.admin.request('DELETE', `/api/queries/${other.id}`)).status).toBe(404)
  })
})

describe('save', () => {
  it('saves what is given, bumps the version, and keeps tags clean', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1', name: 'Draft', tags: ['a'] })
    const res = await f.bo.post(`/api/queries/${q.id}`, {
      version: 1, name: 'Revenue', query: 'select 2', tags: [' b', 'b ', '  ', 'a'], is_draft: false, description: null,
      id: 777, user: { id: 1 }, visualizations: [],
    })
    expect(res.status).toBe(200)
    const saved = await res.json()
    expect(saved).toMatchObject({ id: q.id, version: 2, name: 'Revenue', query: 'select 2', tags: ['b', 'a'], is_draft: false, description: null })
    expect(saved.query_hash).toBe(queryHash('select 2'))
    expect(saved.user.id).toBe(f.ids.bo)
    expect(saved.visualizations).toHaveLength(1)
    // without a version the save is unconditional (the browser's "Overwrite Query")
    expect((await (await f.bo.post(`/api/queries/${q.id}`, { name: 'Revenue (net)' })).json()).version).toBe(3)
  })

  it('refuses a save that names an old version with 409 and a message', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    await f.bo.post(`/api/queries/${q.id}`, { version: 1, query: 'select 10' })
    expect(await refusal(f.bo.post(`/api/queries/${q.id}`, { version: 1, query: 'select 11' }))).toEqual([409, CONFLICT])
    expect((await (await f.bo.get(`/api/queries/${q.id}`)).json()).query).toBe('select 10')
  })

  it('lets exactly one of two concurrent saves of the same version through', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    const statuses = await Promise.all(['select 100', 'select 200'].map(async (text) =>
      (await f.bo.post(`/api/queries/${q.id}`, { version: 1, query: text })).status))
    expect(statuses.sort()).toEqual([200, 409])
    const stored = await (await f.bo.get(`/api/queries/${q.id}`)).json()
    expect(stored.version).toBe(2)
  })

  it('refuses bad input with 400', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    const cases: [unknown, string][] = [
      [{ name: '   ' }, 'Name: This field is required.'],
      [{ name: 'n'.repeat(256) }, 'Name: This field is too long'],
      [{ version: 'one' }, 'version must be a whole number.'],
      [{ is_draft: 'no' }, 'is_draft must be true or false.'],
      [{ options: { apply_auto_limit: 'yes' } }, 'options.apply_auto_limit must be true or false.'],
      [{ is_archived: true }, 'To archive a query, use DELETE /api/queries/{id}.'],
    ]
    for (const [body, message] of cases) {
      expect(await refusal(f.bo.post(`/api/queries/${q.id}`, body))).toEqual([400, expect.stringContaining(message)])
    }
    const res = await f.bo.request('POST', `/api/queries/${q.id}`, { headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
  })

  it('needs edit rights: owner, admin or a modify grant; and never on a view-only source', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect(await refusal(f.cleo.post(`/api/queries/${q.id}`, { name: 'Taken' }))).toEqual([403, "You don't have permission to edit this resource."])
    expect((await (await f.cleo.get(`/api/queries/${q.id}`)).json()).can_edit).toBe(false)
    await f.t.db.sql`insert into access_permissions (object_type, object_id, grantor_id, grantee_id) values ('query', ${q.id}, ${f.ids.bo}, ${f.ids.cleo})`
    expect((await (await f.cleo.get(`/api/queries/${q.id}`)).json()).can_edit).toBe(true)
    const saved = await (await f.cleo.post(`/api/queries/${q.id}`, { name: 'Shared work' })).json()
    expect(saved).toMatchObject({ name: 'Shared work', user: { id: f.ids.bo }, last_modified_by: { id: f.ids.cleo } })
    expect((await f.admin.post(`/api/queries/${q.id}`, { name: 'Admin edit' })).status).toBe(200)

    const onShared = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1' })
    await f.t.db.sql`insert into access_permissions (object_type, object_id, grantor_id, grantee_id) values ('query', ${onShared.id}, ${f.ids.admin}, ${f.ids.vi})`
    expect((await (await f.vi.get(`/api/queries/${onShared.id}`)).json()).can_edit).toBe(false)
    expect(await refusal(f.vi.post(`/api/queries/${onShared.id}`, { name: 'No' }))).toEqual([403, "You have view-only access to this query's data source."])
  })

  it('moves a query to another source only with full access to it', async () => {
    const q = await newQuery(f.vi, { data_source_id: f.warehouse, query: 'select 1' })
    expect((await f.vi.post(`/api/queries/${q.id}`, { data_source_id: f.shared })).status).toBe(403)
    const mine = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect(await refusal(f.bo.post(`/api/queries/${mine.id}`, { data_source_id: f.shared }))).toEqual([403, "You don't have access to this data source."])
    const moved = await (await f.admin.post(`/api/queries/${mine.id}`, { data_source_id: f.shared })).json()
    expect(moved.data_source_id).toBe(f.shared)
  })

  it('stores a schedule for those with schedule_query, normalised; without it the schedule cannot change', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    const saved = await (await f.bo.post(`/api/queries/${q.id}`, { schedule: { interval: '86400', time: '03:15', until: '2030-12-31' } })).json()
    expect(saved.schedule).toEqual({ interval: 86400, time: '03:15', day_of_week: null, until: '2030-12-31' })
    const weekly = { interval: 604800, time: '00:15', day_of_week: 'Monday', until: null }
    expect((await (await f.bo.post(`/api/queries/${q.id}`, { schedule: weekly })).json()).schedule).toEqual(weekly)

    const lous = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1', schedule: weekly })
    await f.t.db.sql`insert into access_permissions (object_type, object_id, grantor_id, grantee_id) values ('query', ${lous.id}, ${f.ids.bo}, ${f.ids.lou})`
    // the browser sends the schedule back unchanged with every save: that is fine
    expect((await f.lou.post(`/api/queries/${lous.id}`, { name: 'Renamed', schedule: { ...weekly } })).status).toBe(200)
    expect((await f.lou.post(`/api/queries/${lous.id}`, { schedule: { interval: 60 } })).status).toBe(403)
    expect((await f.lou.post(`/api/queries/${lous.id}`, { schedule: null })).status).toBe(403)
    expect((await (await f.bo.post(`/api/queries/${lous.id}`, { schedule: null })).json()).schedule).toBeNull()
  })

  it('links the result the browser ran, or the newest one of the new text', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 5' })
    expect(q.latest_query_data_id).toBeNull()
    const result = await storeResult(f.t, f.warehouse, queryHash('select 6'))
    expect((await (await f.bo.post(`/api/queries/${q.id}`, { query: 'select 6' })).json()).latest_query_data_id).toBe(result)
    const ran = await storeResult(f.t, f.warehouse, queryHash('select 6 -- with other values'))
    expect((await (await f.bo.post(`/api/queries/${q.id}`, { latest_query_data_id: ran })).json()).latest_query_data_id).toBe(ran)
    const elsewhere = await storeResult(f.t, f.shared, queryHash('select 6'))
    expect((await (await f.bo.post(`/api/queries/${q.id}`, { latest_query_data_id: elsewhere })).json()).latest_query_data_id).toBe(ran)
    expect((await (await f.bo.post(`/api/queries/${q.id}`, { query: 'select 7' })).json()).latest_query_data_id).toBeNull()
  })
})
