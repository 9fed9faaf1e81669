import { runMigrations } from 'graphile-worker'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate, readMigrations, connect } from '../../src/db/index.ts'
import { quietLogger } from '../../worker/main.ts'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf, settle } from '../helpers/jobs.ts'
import { startPostgres15, type Postgres15 } from '../helpers/postgres-15.ts'

// Managed PostgreSQL services still offer 15: Sightline keeps its own data there as well as on the newest release.

describe('Sightline on PostgreSQL 15', () => {
  let pg: Postgres15
  let t: TestApp
  let admin: Client
  let worker: { stop(): Promise<void> }

  beforeAll(async () => {
    pg = await startPostgres15()
    const url = await pg.createDatabase('sightline')
    const sql = connect(url, { max: 5 })
    const applied = await migrate(sql)
    expect(applied).toHaveLength(readMigrations().length)
    await runMigrations({ connectionString: url, logger: quietLogger })
    t = await createTestApp({}, { db: { url, sql, drop: () => sql.end({ timeout: 1 }) } })
  })
  afterAll(async () => {
    await worker?.stop()
    await t?.close()
    await pg?.stop()
  })

  it('is version 15', async () => {
    const [{ major }] = await t.db.sql<{ major: number }[]>`select current_setting('server_version_num')::int / 10000 as major`
    expect(major).toBe(15)
  })

  it('sets up, saves a destination, refreshes a schema and runs a query', async () => {
    admin = await setUp(t.app)
    expect((await (await admin.get('/api/session')).json()).user.email).toBe('ada@example.com')

    const destination = await admin.post('/api/destinations', { name: 'Ops hook', type: 'webhook', options: { url: 'https://hooks.example.com/sightline' } })
    expect(destination.status).toBe(200)

    worker = await startWorkerFor(t)
    const source = (await (await admin.post('/api/data_sources', { name: 'Own database', type: 'pg', options: pgOptionsFor(t) })).json()) as { id: number }
    const { job } = await (await admin.get(`/api/data_sources/${source.id}/schema?refresh=true`)).json()
    expect((await settle(admin, job)).status).toBe(3)
    const { schema } = await (await admin.get(`/api/data_sources/${source.id}/schema`)).json()
    expect(schema.map((table: { name: string }) => table.name)).toContain('queries')

    const { result, error } = await outcomeOf(admin, await admin.post('/api/query_results', {
      data_source_id: source.id, max_age: 0, query: "select current_setting('server_version_num')::int / 10000 as major",
    }))
    expect(error).toBeUndefined()
    expect(result.data.rows).toEqual([{ major: 15 }])
  })
})
