import { expect } from 'vitest'
import { DEFAULT_PERMISSIONS } from '../../src/permissions/index.ts'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * The people and sources the saved-queries tests share:
 * - admin: everything;
 * - bo and cleo: the default group, full access to `warehouse`, nothing on `shared`;
 * - vi: the default group and `Viewers`, which has `shared` view-only;
 * - lou: only the `Limited` group (view_query and edit_query on `warehouse`; no create_query, no schedule_query).
 */
export interface QueryFixture {
  t: TestApp
  admin: Client
  bo: Client
  cleo: Client
  vi: Client
  lou: Client
  ids: { admin: number; bo: number; cleo: number; vi: number; lou: number }
  warehouse: number
  shared: number
}

export async function queryFixture(): Promise<QueryFixture> {
  const t = await createTestApp()
  const admin = await setUp(t.app)
  const sql = t.db.sql
  const [org] = await sql<{ id: number }[]>`select id from organizations where slug = 'default'`
  const [adminUser] = await sql<{ id: number }[]>`select id from users order by id limit 1`
  const users = {
    bo: await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' }),
    cleo: await addUser(t, { name: 'Cleo', email: 'cleo@example.com', password: 'cleo-password' }),
    vi: await addUser(t, { name: 'Vi', email: 'vi@example.com', password: 'vi-password' }),
    lou: await addUser(t, { name: 'Lou', email: 'lou@example.com', password: 'lou-password' }),
  }
  const warehouse = await createSource(admin, t, 'Warehouse')
  const shared = await createSource(admin, t, 'Shared')

  const [defaultGroup] = await sql<{ id: number }[]>`select id from groups where name = 'default'`
  const [viewers] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions) values (${org.id}, 'Viewers', ${DEFAULT_PERMISSIONS}) returning id`
  const [limited] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions) values (${org.id}, 'Limited', ${['view_query', 'edit_query']}) returning id`
  await ok(admin.request('DELETE', `/api/groups/${defaultGroup.id}/data_sources/${shared}`))
  await ok(admin.post(`/api/groups/${viewers.id}/data_sources`, { data_source_id: shared }))
  await ok(admin.post(`/api/groups/${viewers.id}/data_sources/${shared}`, { view_only: true }))
  await ok(admin.post(`/api/groups/${viewers.id}/members`, { user_id: users.vi.id }))
  await ok(admin.post(`/api/groups/${limited.id}/data_sources`, { data_source_id: warehouse }))
  await sql`delete from user_groups where user_id = ${users.lou.id}`
  await sql`insert into user_groups (user_id, group_id) values (${users.lou.id}, ${limited.id})`

  const signIn = async (email: string, password: string) => (await signInAs(t.app, email, password)).client
  return {
    t, admin, warehouse, shared,
    bo: await signIn('bo@example.com', 'bo-password'),
    cleo: await signIn('cleo@example.com', 'cleo-password'),
    vi: await signIn('vi@example.com', 'vi-password'),
    lou: await signIn('lou@example.com', 'lou-password'),
    ids: { admin: adminUser.id, bo: users.bo.id, cleo: users.cleo.id, vi: users.vi.id, lou: users.lou.id },
  }
}

async function createSource(admin: Client, t: TestApp, name: string): Promise<number> {
  const res = await admin.post('/api/data_sources', { name, type: 'pg', options: pgOptionsFor(t) })
  expect(res.status).toBe(200)
  return (await res.json()).id
}

async function ok(pending: Promise<Response>) {
  const res = await pending
  if (res.status >= 300) throw new Error(`fixture call failed: ${res.status} ${await res.text()}`)
}

export interface QueryJson {
  id: number
  name: string
  version: number
  api_key: string
  [key: string]: unknown
}

/** Create a query through the API and return its JSON; fails the test on any other status. */
export async function newQuery(client: Client, body: Record<string, unknown>): Promise<QueryJson> {
  const res = await client.post('/api/queries', body)
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${await res.text()}`)
  return res.json()
}

/** The status and `message` of a refused call, for one-line expectations. */
export async function refusal(pending: Promise<Response>): Promise<[number, string]> {
  const res = await pending
  return [res.status, (await res.json()).message]
}

/** Store a finished result directly (execution is not part of these tests). */
export async function storeResult(t: TestApp, dataSourceId: number, queryHash: string, o: { runtime?: number; retrievedAt?: string } = {}) {
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations where slug = 'default'`
  const [row] = await t.db.sql<{ id: number }[]>`
    insert into query_results (org_id, data_source_id, query_hash, query_text, columns, row_count, runtime, retrieved_at)
    values (${org.id}, ${dataSourceId}, ${queryHash}, 'stored', '[]', 0, ${o.runtime ?? 0.5}, ${o.retrievedAt ?? new Date().toISOString()})
    returning id`
  return row.id
}
