import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMigrations } from '../../src/db/index.ts'
import { Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { outcomeOf, settle } from '../helpers/jobs.ts'
import { spawnSightline, stopProcess, waitForOutput, type SightlineProcess } from '../helpers/process.ts'

// Scaled out, the web process that served /setup and the workers that run queries live on different machines, each
// with its own data directory: the Demo source must work from every one of them.

describe('the Demo source, queried by a worker on another machine', () => {
  let t: TestApp
  let admin: Client
  let worker: SightlineProcess | undefined
  const workerDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-elsewhere-'))

  beforeAll(async () => {
    t = await createTestApp()
    admin = await setUp(t.app)
    // the web process's data directory is on its own machine: nothing of it is reachable from the worker's
    fs.rmSync(path.join(t.deps.config.dataDir, 'demo'), { recursive: true, force: true })
  })
  afterAll(async () => {
    if (worker) await stopProcess(worker)
    await t.close()
    fs.rmSync(workerDataDir, { recursive: true, force: true })
  })

  it('answers from the worker\'s own data directory, empty until then', async () => {
    expect(fs.readdirSync(workerDataDir)).toEqual([])
    worker = await spawnSightline({
      DATABASE_URL: t.db.url, SIGHTLINE_DATA_DIR: workerDataDir, SIGHTLINE_PROCESS: 'worker', SIGHTLINE_SECRET_KEY: t.deps.secretKey,
    })
    await waitForOutput(worker, 'worker started', 60_000)
    const sources = (await (await admin.get('/api/data_sources')).json()) as { id: number; name: string }[]
    const demo = sources.find((s) => s.name === 'Demo')!
    const { result, error } = await outcomeOf(admin, await admin.post('/api/query_results', {
      data_source_id: demo.id, max_age: 0, query: 'select count(*) as orders from orders',
    }))
    expect(error).toBeUndefined()
    expect(result.data.rows).toEqual([{ orders: 25000 }])
    expect(fs.existsSync(path.join(workerDataDir, 'demo', 'shop.duckdb'))).toBe(true)
  })

  it('shows its schema, read by that worker', async () => {
    const sources = (await (await admin.get('/api/data_sources')).json()) as { id: number; name: string }[]
    const demo = sources.find((s) => s.name === 'Demo')!
    const { job } = await (await admin.get(`/api/data_sources/${demo.id}/schema?refresh=true`)).json()
    expect((await settle(admin, job)).status).toBe(3)
    const { schema } = await (await admin.get(`/api/data_sources/${demo.id}/schema`)).json()
    expect(schema.map((table: { name: string }) => table.name)).toEqual(expect.arrayContaining(['customers', 'orders', 'order_lines', 'products']))
  })

  it('answers for a Demo source set up by an earlier release, which named the web process\'s file', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations limit 1`
    const earlier = { dbpath: path.join(t.deps.config.dataDir, 'demo', 'shop.duckdb'), read_only: true }
    const own = { dbpath: path.join(t.deps.config.dataDir, 'shop.duckdb'), read_only: true }
    const [{ id }] = await t.db.sql<{ id: number }[]>`
      insert into data_sources (org_id, name, type, options) values (${org.id}, 'Demo of 0.1', 'duckdb', ${t.db.sql.json(earlier)}) returning id`
    await t.db.sql`insert into data_sources (org_id, name, type, options) values (${org.id}, 'Own shop', 'duckdb', ${t.db.sql.json(own)})`
    await t.db.sql`insert into data_source_groups (data_source_id, group_id) select ${id}, id from groups where org_id = ${org.id} and name = 'admin'`

    const migration = readMigrations().find((m) => m.name === 'demo_source_by_name')!
    await t.db.sql.unsafe(migration.text)

    const options = await t.db.sql<{ name: string; options: { dbpath: string } }[]>`
      select name, options from data_sources where type = 'duckdb' order by name`
    expect(options.map((o) => [o.name, o.options.dbpath])).toEqual([['Demo', 'sightline:demo'], ['Demo of 0.1', 'sightline:demo'], ['Own shop', own.dbpath]])
    const { result, error } = await outcomeOf(admin, await admin.post('/api/query_results', {
      data_source_id: id, max_age: 0, query: 'select count(*) as products from products',
    }))
    expect(error).toBeUndefined()
    expect(result.data.rows).toEqual([{ products: 60 }])
  })
})
