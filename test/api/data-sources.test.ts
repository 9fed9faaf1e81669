import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
let user: Client
let dsId: number
beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  user = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  await t.db.sql`create table sales (id int primary key, region text, amount numeric, sold_at timestamptz)`
  await t.db.sql`create view sales_by_region as select region, sum(amount) from sales group by region`
})
afterAll(() => t.close())

describe('types', () => {
  it('lists each runner with its configuration schema, for admins', async () => {
    const types = await (await admin.get('/api/data_sources/types')).json()
    const pg = types.find((x: { type: string }) => x.type === 'pg')
    expect(pg.name).toBe('PostgreSQL')
    expect(pg.configuration_schema.properties).toHaveProperty('host')
    expect(pg.configuration_schema.required).toContain('dbname')
    expect(pg.configuration_schema.secret).toContain('password')
    expect((await user.get('/api/data_sources/types')).status).toBe(403)
  })
})

describe('create, read, save, delete', () => {
  it('refuses bad input with clear messages', async () => {
    const cases: [unknown, number, string][] = [
      [{ type: 'pg', options: pgOptionsFor(t) }, 400, 'Name: This field is required.'],
      [{ name: 'X', type: 'oracle-9i', options: {} }, 400, 'Unknown data source type: oracle-9i.'],
      [{ name: 'X', type: 'pg', options: { host: 'h' } }, 400, 'This field is required.'],
      [{ name: 'X', type: 'pg', options: { ...pgOptionsFor(t), color: 'red' } }, 400, 'Unknown option: color.'],
      [{ name: 'X', type: 'pg', options: { ...pgOptionsFor(t), port: 'eighty' } }, 400, 'must be a number'],
    ]
    for (const [body, status, message] of cases) {
      const res = await admin.post('/api/data_sources', body)
      expect(res.status).toBe(status)
      expect((await res.json()).message).toContain(message)
    }
  })

  it('creates a source for admins only, attached to the default group, secrets masked', async () => {
    expect((await user.post('/api/data_sources', { name: 'Mine', type: 'pg', options: pgOptionsFor(t) })).status).toBe(403)
    const res = await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })
    expect(res.status).toBe(200)
    const ds = await res.json()
    dsId = ds.id
    expect(ds).toMatchObject({ name: 'Warehouse', type: 'pg', syntax: 'sql', view_only: false, supports_auto_limit: true })
    expect(ds.options.password).toBe('--------')
    expect(ds.options.dbname).toBe(pgOptionsFor(t).dbname)
    const [row] = await t.db.sql`select options, secrets from data_sources where id = ${dsId}`
    expect(row.options).not.toHaveProperty('password')
    expect(row.secrets).not.toContain(pgOptionsFor(t).password)
  })

  it('refuses a second source with the same name', async () => {
    const res = await admin.post('/api/data_sources', { name: 'warehouse', type: 'pg', options: pgOptionsFor(t) })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('A data source with this name already exists.')
  })

  it('shows users the sources of their groups without options', async () => {
    const list = await (await user.get('/api/data_sources')).json()
    expect(list.map((d: { name: string }) => d.name)).toEqual(['Demo', 'Warehouse'])
    const warehouse = list.find((d: { id: number }) => d.id === dsId)
    expect(warehouse).toMatchObject({ name: 'Warehouse', view_only: false })
    expect(warehouse).not.toHaveProperty('options')
    const one = await (await user.get(`/api/data_sources/${dsId}`)).json()
    expect(one).not.toHaveProperty('options')
  })

  it('says whether a source is paused as true or false, in the list and the single answer alike', async () => {
    const answers = async () => {
      const entry = async (client: Client) => ((await (await client.get('/api/data_sources')).json()) as { id: number }[])
        .find((d) => d.id === dsId)
      const one = async (client: Client) => (await client.get(`/api/data_sources/${dsId}`)).json()
      return [await entry(admin), await entry(user), await one(admin), await one(user)]
    }
    for (const answer of await answers()) expect(answer).toMatchObject({ paused: false, pause_reason: null })
    await t.db.sql`update data_sources set paused = true, pause_reason = 'Maintenance' where id = ${dsId}`
    try {
      for (const answer of await answers()) expect(answer).toMatchObject({ paused: true, pause_reason: 'Maintenance' })
    } finally {
      await t.db.sql`update data_sources set paused = false, pause_reason = null where id = ${dsId}`
    }
  })

  it('tests the connection: ok with the stored password, a clear failure otherwise', async () => {
    expect(await (await admin.post(`/api/data_sources/${dsId}/test`)).json()).toEqual({ ok: true, message: 'success' })
    expect((await user.post(`/api/data_sources/${dsId}/test`)).status).toBe(403)
  })

  it('keeps the stored secret when the mask comes back on save', async () => {
    const options = { ...pgOptionsFor(t), password: '--------' }
    const res = await admin.post(`/api/data_sources/${dsId}`, { name: 'Warehouse (prod)', type: 'pg', options })
    expect(res.status).toBe(200)
    expect((await res.json()).name).toBe('Warehouse (prod)')
    expect((await (await admin.post(`/api/data_sources/${dsId}/test`)).json()).ok).toBe(true)
  })

  it('reports a wrong password as a failed test, with the engine\'s message', async () => {
    const other = await (await admin.post('/api/data_sources', { name: 'Broken', type: 'pg', options: { ...pgOptionsFor(t), password: 'wrong' } })).json()
    const result = await (await admin.post(`/api/data_sources/${other.id}/test`)).json()
    expect(result.ok).toBe(false)
    expect(result.message).toMatch(/password/i)
    expect((await admin.request('DELETE', `/api/data_sources/${other.id}`)).status).toBe(204)
    expect((await admin.get(`/api/data_sources/${other.id}`)).status).toBe(404)
  })
})

describe('schema', () => {
  it('refreshes in the background and then serves the cached schema', async () => {
    const first = await (await user.get(`/api/data_sources/${dsId}/schema`)).json()
    expect(first.job.status).toBe(1)
    const again = await (await user.get(`/api/data_sources/${dsId}/schema?refresh=true`)).json()
    expect(again.job.id).toBe(first.job.id) // one refresh at a time per source
    await runJobs(t)
    expect((await (await user.get(`/api/jobs/${first.job.id}`)).json()).job).toMatchObject({ status: 3, error: '' })
    const { schema } = await (await user.get(`/api/data_sources/${dsId}/schema`)).json()
    const sales = schema.find((x: { name: string }) => x.name === 'sales')
    expect(sales.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'region', 'amount', 'sold_at'])
    expect(schema.map((x: { name: string }) => x.name)).toContain('sales_by_region')
  })

  it('reports a failed refresh on the job', async () => {
    const broken = await (await admin.post('/api/data_sources', { name: 'Down', type: 'pg', options: { ...pgOptionsFor(t), port: 1 } })).json()
    const { job } = await (await admin.get(`/api/data_sources/${broken.id}/schema`)).json()
    await runJobs(t)
    const polled = (await (await admin.get(`/api/jobs/${job.id}`)).json()).job
    expect(polled.status).toBe(4)
    expect(polled.error).not.toBe('')
  })

  it('answers 404 for unknown jobs', async () => {
    expect((await admin.get('/api/jobs/00000000-0000-0000-0000-000000000000')).status).toBe(404)
    expect((await admin.get('/api/jobs/nope')).status).toBe(404)
  })
})

describe('group access', () => {
  it('makes a group view-only, and removing the group hides the source', async () => {
    const groups = await (await admin.get('/api/groups')).json()
    const defaultGroup = groups.find((g: { name: string }) => g.name === 'default')
    const res = await admin.post(`/api/groups/${defaultGroup.id}/data_sources/${dsId}`, { view_only: true })
    expect((await res.json()).view_only).toBe(true)
    const seen = await (await user.get('/api/data_sources')).json()
    expect(seen.find((d: { id: number }) => d.id === dsId).view_only).toBe(true)
    const listed = await (await admin.get(`/api/groups/${defaultGroup.id}/data_sources`)).json()
    expect(listed.find((d: { id: number }) => d.id === dsId).view_only).toBe(true)

    expect((await admin.request('DELETE', `/api/groups/${defaultGroup.id}/data_sources/${dsId}`)).status).toBe(200)
    expect((await (await user.get('/api/data_sources')).json()).map((d: { id: number }) => d.id)).not.toContain(dsId)
    expect((await user.get(`/api/data_sources/${dsId}`)).status).toBe(403)
    expect((await user.get(`/api/data_sources/${dsId}/schema`)).status).toBe(403)

    const added = await admin.post(`/api/groups/${defaultGroup.id}/data_sources`, { data_source_id: dsId })
    expect((await added.json()).view_only).toBe(false)
  })

  it('lets only admins change group access', async () => {
    const groups = await (await user.get('/api/groups')).json()
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['default'])
    const res = await user.post(`/api/groups/${groups[0].id}/data_sources/${dsId}`, { view_only: true })
    expect(res.status).toBe(403)
    expect((await admin.post(`/api/groups/999/data_sources`, { data_source_id: dsId })).status).toBe(404)
    expect((await admin.post(`/api/groups/${groups[0].id}/data_sources`, { data_source_id: 'x' })).status).toBe(400)
  })
})
