import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryHash } from '../../src/executions/index.ts'
import { newQuery, queryFixture, refusal, storeResult, type QueryFixture } from './queries-fixture.ts'

let f: QueryFixture
beforeAll(async () => {
  f = await queryFixture()
})
afterAll(() => f.t.close())

const CONFLICT = 'It seems like the query has been modified by another user. Please copy/backup your changes and reload this page.'

describe('archive', () => {
  it('lets the owner or an admin archive; clears the schedule; unarchive by saving', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1', schedule: { interval: 3600 } })
    await f.t.db.sql`update queries set schedule_next_at = now() where id = ${q.id}`
    expect(await refusal(f.cleo.request('DELETE', `/api/queries/${q.id}`))).toEqual([403, "You don't have permission to edit this resource."])
    const res = await f.bo.request('DELETE', `/api/queries/${q.id}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect((await f.bo.request('DELETE', `/api/queries/${q.id}`)).status).toBe(200)
    const archived = await (await f.bo.get(`/api/queries/${q.id}`)).json()
    expect(archived).toMatchObject({ is_archived: true, schedule: null })
    const [row] = await f.t.db.sql`select schedule_next_at from queries where id = ${q.id}`
    expect(row.schedule_next_at).toBeNull()
    const restored = await (await f.bo.post(`/api/queries/${q.id}`, { is_archived: false })).json()
    expect(restored.is_archived).toBe(false)

    const admins = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect((await f.admin.request('DELETE', `/api/queries/${admins.id}`)).status).toBe(200)
  })
})

describe('fork', () => {
  it('copies the query and every visualization for the caller, as a draft', async () => {
    const original = await newQuery(f.bo, {
      data_source_id: f.warehouse, query: 'select 8', name: 'Orders', description: 'All of them', tags: ['ops'],
      options: { apply_auto_limit: true, parameters: [] }, schedule: { interval: 600 },
    })
    const result = await storeResult(f.t, f.warehouse, original.query_hash as string)
    await f.bo.post(`/api/queries/${original.id}`, { latest_query_data_id: result, is_draft: false })
    await f.t.db.sql`
      insert into visualizations (query_id, type, name, options) values (${original.id}, 'CHART', 'By day', ${f.t.db.sql.json({ globalSeriesType: 'line' })})`
    const res = await f.cleo.post(`/api/queries/${original.id}/fork`)
    expect(res.status).toBe(200)
    const fork = await res.json()
    expect(fork).toMatchObject({
      name: `Copy of (#${original.id}) Orders`, description: 'All of them', query: 'select 8', tags: ['ops'],
      options: { apply_auto_limit: true, parameters: [] }, data_source_id: f.warehouse, latest_query_data_id: result,
      query_hash: original.query_hash, is_draft: true, schedule: null, version: 1, user: { id: f.ids.cleo }, can_edit: true,
    })
    expect(fork.id).not.toBe(original.id)
    expect(fork.api_key).not.toBe(original.api_key)
    expect(fork.visualizations.map((v: { type: string; name: string; options: unknown }) => [v.type, v.name, v.options])).toEqual([
      ['TABLE', 'Table', {}], ['CHART', 'By day', { globalSeriesType: 'line' }],
    ])
    const originalNow = await (await f.bo.get(`/api/queries/${original.id}`)).json()
    expect(originalNow.visualizations).toHaveLength(2)
    expect(fork.visualizations.map((v: { id: number }) => v.id)).not.toContain(originalNow.visualizations[0].id)
  })

  it('needs edit_query and full access to the source', async () => {
    const q = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1' })
    expect((await f.vi.post(`/api/queries/${q.id}/fork`)).status).toBe(403)
    expect((await f.cleo.post(`/api/queries/${q.id}/fork`)).status).toBe(404)
    expect((await f.admin.post(`/api/queries/${q.id}/fork`)).status).toBe(200)
  })
})

describe('favorites', () => {
  it('stars and unstars idempotently for anyone who sees the query', async () => {
    const q = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1' })
    for (let i = 0; i < 2; i++) {
      const res = await f.vi.post(`/api/queries/${q.id}/favorite`)
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
    }
    expect((await (await f.vi.get(`/api/queries/${q.id}`)).json()).is_favorite).toBe(true)
    expect((await (await f.admin.get(`/api/queries/${q.id}`)).json()).is_favorite).toBe(false)
    expect((await f.cleo.post(`/api/queries/${q.id}/favorite`)).status).toBe(404)
    for (let i = 0; i < 2; i++) expect((await f.vi.request('DELETE', `/api/queries/${q.id}/favorite`)).status).toBe(200)
    expect((await (await f.vi.get(`/api/queries/${q.id}`)).json()).is_favorite).toBe(false)
  })
})

describe('API keys', () => {
  it('reads exactly one query, read-only, with the query key', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1', name: 'Embedded' })
    const other = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 2' })
    const byKey = (path: string, key = q.api_key) => f.t.app.request(path, { headers: { authorization: `Key ${key}` } })
    const res = await byKey(`/api/queries/${q.id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const seen = await res.json()
    expect(seen).toMatchObject({ id: q.id, name: 'Embedded', is_favorite: false })
    expect(seen).not.toHaveProperty('can_edit')
    expect((await f.t.app.request(`/api/queries/${q.id}?api_key=${q.api_key}`)).status).toBe(200)
    expect((await byKey(`/api/queries/${other.id}`)).status).toBe(404)
    expect((await byKey('/api/queries')).status).toBe(401)
    expect((await f.t.app.request(`/api/queries/${q.id}`, { method: 'POST', headers: { authorization: `Key ${q.api_key}`, 'content-type': 'application/json' }, body: '{"name":"x"}' })).status).toBe(401)
    expect((await byKey(`/api/queries/${q.id}`, 'x'.repeat(40))).status).toBe(404)
  })

  it('regenerates the key for the owner or an admin; the old key stops working', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect((await f.cleo.post(`/api/queries/${q.id}/regenerate_api_key`)).status).toBe(403)
    const res = await f.bo.post(`/api/queries/${q.id}/regenerate_api_key`)
    expect(res.status).toBe(200)
    const renewed = await res.json()
    expect(renewed.api_key).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(renewed.api_key).not.toBe(q.api_key)
    expect((await f.t.app.request(`/api/queries/${q.id}?api_key=${q.api_key}`)).status).toBe(404)
    expect((await f.t.app.request(`/api/queries/${q.id}?api_key=${renewed.api_key}`)).status).toBe(200)
    expect((await f.admin.post(`/api/queries/${q.id}/regenerate_api_key`)).status).toBe(200)
  })

  it('stops working when the query is archived', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    await f.bo.request('DELETE', `/api/queries/${q.id}`)
    expect((await f.t.app.request(`/api/queries/${q.id}?api_key=${q.api_key}`)).status).toBe(404)
  })
})

describe('acl', () => {
  it('lists the users granted modify', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect(await (await f.bo.get(`/api/queries/${q.id}/acl`)).json()).toEqual({ modify: [] })
    await f.t.db.sql`insert into access_permissions (object_type, object_id, grantor_id, grantee_id) values ('query', ${q.id}, ${f.ids.bo}, ${f.ids.cleo})`
    const acl = await (await f.cleo.get(`/api/queries/${q.id}/acl`)).json()
    expect(acl.modify.map((u: { id: number; name: string }) => [u.id, u.name])).toEqual([[f.ids.cleo, 'Cleo']])
    expect(acl.modify[0]).not.toHaveProperty('api_key')
  })
})

describe('versions', () => {
  it('keeps every saved state and restores one as a new version', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1', name: 'First', tags: ['v1'] })
    await f.bo.post(`/api/queries/${q.id}`, { version: 1, query: 'select 2', name: 'Second' })
    await f.cleo.post(`/api/queries/${q.id}`, { version: 2 }) // no edit right: refused, no version
    await f.admin.post(`/api/queries/${q.id}`, { version: 2, query: 'select 3', tags: [] })
    const { results } = await (await f.cleo.get(`/api/queries/${q.id}/versions`)).json()
    expect(results.map((v: { version: number; query: string; name: string }) => [v.version, v.query, v.name])).toEqual([
      [3, 'select 3', 'Second'], [2, 'select 2', 'Second'], [1, 'select 1', 'First'],
    ])
    expect(results[0]).toMatchObject({ user: { id: f.ids.admin }, data_source_id: f.warehouse, tags: [], schedule: null, options: {} })
    expect(results[2]).toMatchObject({ user: { id: f.ids.bo }, tags: ['v1'] })

    expect(await refusal(f.bo.post(`/api/queries/${q.id}/versions/1/restore`, { version: 2 }))).toEqual([409, CONFLICT])
    expect((await f.cleo.post(`/api/queries/${q.id}/versions/1/restore`)).status).toBe(403)
    expect((await f.bo.post(`/api/queries/${q.id}/versions/9/restore`)).status).toBe(404)
    const res = await f.bo.post(`/api/queries/${q.id}/versions/1/restore`, { version: 3 })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ version: 4, query: 'select 1', name: 'First', tags: ['v1'], query_hash: queryHash('select 1') })
    const restoredWithoutBody = await f.bo.post(`/api/queries/${q.id}/versions/2/restore`)
    expect((await restoredWithoutBody.json()).version).toBe(5)
    const after = await (await f.bo.get(`/api/queries/${q.id}/versions`)).json()
    expect(after.results.map((v: { version: number }) => v.version)).toEqual([5, 4, 3, 2, 1])
  })

  it('shows versions only to those who see the query', async () => {
    const q = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1' })
    expect((await f.cleo.get(`/api/queries/${q.id}/versions`)).status).toBe(404)
    expect((await f.vi.get(`/api/queries/${q.id}/versions`)).status).toBe(200)
    expect((await f.vi.post(`/api/queries/${q.id}/versions/1/restore`)).status).toBe(403)
  })
})

describe('audit', () => {
  it('records every change to a query in the audit log', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    await f.bo.post(`/api/queries/${q.id}`, { name: 'Edited' })
    await f.bo.post(`/api/queries/${q.id}/versions/1/restore`)
    await f.bo.post(`/api/queries/${q.id}/favorite`)
    await f.bo.request('DELETE', `/api/queries/${q.id}/favorite`)
    await f.bo.post(`/api/queries/${q.id}/regenerate_api_key`)
    await f.bo.post(`/api/queries/${q.id}/fork`)
    await f.bo.request('DELETE', `/api/queries/${q.id}`)
    const events = await f.t.db.sql<{ action: string; user_id: number }[]>`
      select action, user_id from events where object_type = 'query' and object_id = ${String(q.id)} order by id`
    expect(events.map((e) => e.action)).toEqual(['create', 'edit', 'restore', 'favorite', 'unfavorite', 'regenerate_api_key', 'fork', 'archive'])
    expect(new Set(events.map((e) => e.user_id))).toEqual(new Set([f.ids.bo]))
  })
})
