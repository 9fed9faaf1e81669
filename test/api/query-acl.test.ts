import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/** A query's edit grants (reference §2.6): GET/POST/DELETE /api/queries/{id}/acl and GET …/acl/{access_type}. */
let f: QueryFixture
beforeAll(async () => {
  f = await queryFixture()
})
afterAll(() => f.t.close())

const acl = (path: string) => `/api/queries/${path}/acl`
const grantees = async (id: number) =>
  ((await (await f.bo.get(acl(String(id)))).json()).modify as { id: number }[]).map((u) => u.id)
const holds = async (client: typeof f.bo, id: number, type = 'modify') =>
  (await (await client.get(`${acl(String(id))}/${type}`)).json()).response

describe('granting', () => {
  it('lets the owner grant modify: the grantee can then edit, and granting again answers the same grant', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect((await (await f.cleo.get(`/api/queries/${q.id}`)).json()).can_edit).toBe(false)
    expect(await refusal(f.cleo.post(`/api/queries/${q.id}`, { version: 1, name: 'Mine now' })))
      .toEqual([403, "You don't have permission to edit this resource."])

    const res = await f.bo.post(acl(String(q.id)), { access_type: 'modify', user_id: f.ids.cleo })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const grant = await res.json()
    expect(grant).toEqual({ id: expect.any(Number), object_id: q.id, object_type: 'queries', access_type: 'modify', grantor: f.ids.bo, grantee: f.ids.cleo })
    expect(await (await f.bo.post(acl(String(q.id)), { access_type: 'modify', user_id: f.ids.cleo })).json()).toEqual(grant)

    expect(await grantees(q.id)).toEqual([f.ids.cleo])
    expect(await holds(f.cleo, q.id)).toBe(true)
    expect(await holds(f.bo, q.id)).toBe(false) // owning is not a grant
    expect(await holds(f.cleo, q.id, 'view')).toBe(false)
    expect((await (await f.cleo.get(`/api/queries/${q.id}`)).json()).can_edit).toBe(true)
    expect((await f.cleo.post(`/api/queries/${q.id}`, { version: 1, name: 'Edited by Cleo' })).status).toBe(200)
  })

  it('lets an admin grant on anyone\'s query; nobody else may, granted or not', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    expect((await f.admin.post(acl(String(q.id)), { access_type: 'modify', user_id: f.ids.cleo })).status).toBe(200)
    expect(await refusal(f.cleo.post(acl(String(q.id)), { access_type: 'modify', user_id: f.ids.lou })))
      .toEqual([403, "You don't have permission to edit this resource."])
    expect(await refusal(f.cleo.request('DELETE', acl(String(q.id)), { json: { access_type: 'modify', user_id: f.ids.cleo } })))
      .toEqual([403, "You don't have permission to edit this resource."])
    expect(await grantees(q.id)).toEqual([f.ids.cleo])
  })

  it('refuses unknown access types, unknown users and malformed bodies with 400', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    const path = acl(String(q.id))
    expect(await refusal(f.bo.post(path, { access_type: 'own', user_id: f.ids.cleo }))).toEqual([400, 'Unknown access type.'])
    expect(await refusal(f.bo.post(path, { user_id: f.ids.cleo }))).toEqual([400, 'Unknown access type.'])
    expect(await refusal(f.bo.post(path, { access_type: 'modify', user_id: 987654 }))).toEqual([400, 'User not found.'])
    expect(await refusal(f.bo.post(path, { access_type: 'modify', user_id: 'cleo' }))).toEqual([400, 'User not found.'])
    expect(await refusal(f.bo.post(path, { access_type: 'modify', user_id: 1.5 }))).toEqual([400, 'User not found.'])
    expect(await refusal(f.bo.post(path, [1, 2]))).toEqual([400, 'The request body must be a JSON object.'])
    expect(await refusal(f.bo.request('DELETE', path, { json: { access_type: 'modify' } }))).toEqual([400, 'User not found.'])
    expect(await refusal(f.bo.request('DELETE', path))).toEqual([400, 'The request body must be JSON.'])
    // a user id sent as text, as forms do, names the same user
    expect((await f.bo.post(path, { access_type: 'modify', user_id: String(f.ids.lou) })).status).toBe(200)
    expect(await grantees(q.id)).toEqual([f.ids.lou])
  })

  it('answers 404 for a query the caller cannot see, whatever they ask', async () => {
    const q = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1' })
    const path = acl(String(q.id))
    expect((await f.cleo.get(path)).status).toBe(404)
    expect((await f.cleo.get(`${path}/modify`)).status).toBe(404)
    expect((await f.cleo.post(path, { access_type: 'modify', user_id: f.ids.cleo })).status).toBe(404)
    expect((await f.cleo.request('DELETE', path, { json: { access_type: 'modify', user_id: f.ids.cleo } })).status).toBe(404)
    expect((await f.bo.get(acl('999999'))).status).toBe(404)
  })
})

describe('revoking', () => {
  it('takes the grant away, whoever granted it; revoking nothing is fine', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    const path = acl(String(q.id))
    await f.admin.post(path, { access_type: 'modify', user_id: f.ids.cleo })
    await f.bo.post(path, { access_type: 'modify', user_id: f.ids.lou })
    const res = await f.bo.request('DELETE', path, { json: { access_type: 'modify', user_id: f.ids.cleo } })
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(await grantees(q.id)).toEqual([f.ids.lou])
    expect(await holds(f.cleo, q.id)).toBe(false)
    expect(await refusal(f.cleo.post(`/api/queries/${q.id}`, { version: 1, name: 'Too late' })))
      .toEqual([403, "You don't have permission to edit this resource."])
    expect((await f.bo.request('DELETE', path, { json: { access_type: 'modify', user_id: f.ids.cleo } })).status).toBe(200)
  })

  it('records grants and revokes in the audit log', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, query: 'select 1' })
    await f.bo.post(acl(String(q.id)), { access_type: 'modify', user_id: f.ids.cleo })
    await f.bo.request('DELETE', acl(String(q.id)), { json: { access_type: 'modify', user_id: f.ids.cleo } })
    const events = await f.t.db.sql`
      select action, object_type, user_id, additional_properties from events
      where object_id = ${String(q.id)} and action like '%_permission' order by id`
    expect(events.map((e) => [e.action, e.object_type, e.user_id, e.additional_properties])).toEqual([
      ['grant_permission', 'query', f.ids.bo, { grantee: f.ids.cleo, access_type: 'modify' }],
      ['revoke_permission', 'query', f.ids.bo, { grantee: f.ids.cleo, access_type: 'modify' }],
    ])
  })
})
