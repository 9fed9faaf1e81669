import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setClientFactory, type DatabricksClient, type DatabricksOperation } from '../../src/runners/index.ts'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** A warehouse faked at the driver boundary (none runs here): counts how often it is asked. */
const calls: string[] = []
const op = (rows: object[]): DatabricksOperation => ({
  fetchChunk: async () => rows, hasMoreRows: async () => false, getSchema: async () => null, cancel: async () => {}, close: async () => {},
})
const client: DatabricksClient = {
  connect: async () => client,
  close: async () => {},
  openSession: async () => ({
    close: async () => {},
    executeStatement: async (statement) => {
      calls.push(statement)
      return op([{ databaseName: 'sales' }, { databaseName: 'marketing' }])
    },
    getTables: async ({ schemaName }) => {
      calls.push(`tables ${schemaName}`)
      if (schemaName === 'locked') throw new Error('PERMISSION_DENIED: User does not have USE SCHEMA on locked')
      return op([{ TABLE_NAME: 'orders' }, { TABLE_NAME: 'customers' }])
    },
    getColumns: async ({ tableName }) => {
      calls.push(`columns ${tableName}`)
      return op([{ COLUMN_NAME: 'id', TYPE_NAME: 'BIGINT' }, { COLUMN_NAME: 'placed_at', TYPE_NAME: 'TIMESTAMP' }])
    },
  }),
}

let t: TestApp
let admin: Client
let user: Client
let dbx: number
let pg: number
beforeAll(async () => {
  setClientFactory(() => client)
  t = await createTestApp()
  admin = await setUp(t.app)
  dbx = (await (await admin.post('/api/data_sources', { name: 'Lakehouse', type: 'databricks', options: { host: 'dbc-1.cloud.databricks.com', http_path: '/sql/1.0/warehouses/x', access_token: 'dapi-1' } })).json()).id
  pg = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  user = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
})
afterAll(async () => {
  setClientFactory(null)
  await t.close()
})

describe('Databricks schema browsing (spec 3 §7)', () => {
  it('lists databases, and serves them from cache until refresh is asked for', async () => {
    expect(await (await user.get(`/api/databricks/databases/${dbx}`)).json()).toEqual(['sales', 'marketing'])
    await user.get(`/api/databricks/databases/${dbx}`)
    expect(calls.filter((c) => c === 'SHOW DATABASES')).toHaveLength(1)
    await user.get(`/api/databricks/databases/${dbx}?refresh=true`)
    expect(calls.filter((c) => c === 'SHOW DATABASES')).toHaveLength(2)
  })

  it('lists the tables of a database, columns loading on expand', async () => {
    const tables = await (await user.get(`/api/databricks/databases/${dbx}/sales/tables`)).json()
    expect(tables).toEqual({ schema: [{ name: 'sales.orders', columns: [] }, { name: 'sales.customers', columns: [] }], has_columns: false })
    const columns = await (await user.get(`/api/databricks/databases/${dbx}/sales/columns/orders`)).json()
    expect(columns).toEqual([{ name: 'id', type: 'BIGINT' }, { name: 'placed_at', type: 'TIMESTAMP' }])
  })

  it("answers the warehouse's refusal as a 502 with its message, and does not keep it", async () => {
    const res = await user.get(`/api/databricks/databases/${dbx}/locked/tables`)
    expect(res.status).toBe(502)
    expect((await res.json()).message).toContain('PERMISSION_DENIED: User does not have USE SCHEMA on locked')
    await user.get(`/api/databricks/databases/${dbx}/locked/tables`)
    expect(calls.filter((c) => c === 'tables locked')).toHaveLength(2)
  })

  it('refuses other kinds of source with the established message', async () => {
    const res = await user.get(`/api/databricks/databases/${pg}`)
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Resource only available for the Databricks query runner.')
  })

  it('refuses sources the caller has no group access to with 403, as the established tool does', async () => {
    const [{ id: groupId }] = await t.db.sql`select id from groups where name = 'default'`
    await admin.request('DELETE', `/api/groups/${groupId}/data_sources/${dbx}`)
    expect((await user.get(`/api/databricks/databases/${dbx}`)).status).toBe(403)
    expect((await new Client(t.app).get(`/api/databricks/databases/${dbx}`)).status).toBe(401)
  })
})
