import crypto from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clickhouseRunner } from '../../src/runners/clickhouse.ts'
import { mysqlRunner } from '../../src/runners/mysql.ts'
import { closeWarmPostgresConnections, postgresRunner } from '../../src/runners/postgres.ts'
import type { Runner, RunnerConfig, StatementHandle } from '../../src/runners/runner.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { clickhouseServer, type ClickHouseServer } from './clickhouse-server.ts'
import { postgresConfig, waitUntil } from './support.ts'

/*
 * A worker that dies mid-run leaves its statement running in the engine. `cancelOrphan` stops it from another
 * process, given only what the run reported through `onStatement`: here the "dead worker" is a run nobody reads.
 */

/** Starts `text` and resolves with the handle the runner reported; the run itself is left to its fate. */
async function orphan(runner: Runner, config: RunnerConfig, text: string): Promise<{ handle: StatementHandle; run: Promise<unknown> }> {
  let reported: (handle: StatementHandle) => void
  const handle = new Promise<StatementHandle>((resolve) => (reported = resolve))
  const run = runner.run(config, text, { signal: new AbortController().signal, timeoutMs: 0, onStatement: (h) => reported(h) })
  run.catch(() => {}) // it fails once its statement is stopped
  return { handle: await handle, run }
}

describe('stopping a dead worker\'s statement: PostgreSQL', () => {
  let db: TestDatabase
  let config: RunnerConfig
  beforeAll(async () => {
    db = await freshDatabase()
    config = postgresConfig(db.url)
  })
  afterAll(async () => {
    await closeWarmPostgresConnections()
    await db?.drop()
  })
  const backends = async (marker: string) =>
    Number((await db.sql`select count(*)::int as n from pg_stat_activity where query like ${`%${marker}%`} and pid <> pg_backend_pid()`)[0].n)

  it('ends the backend the run reported, and says so once it has gone', async () => {
    const { handle } = await orphan(postgresRunner, config, "select pg_sleep(60), 'orphan-pg-1'")
    expect(handle).toMatchObject({ pid: expect.any(Number), started: expect.any(String) })
    await waitUntil(async () => (await backends('orphan-pg-1')) === 1, 10_000)
    expect(await postgresRunner.cancelOrphan!(config, handle)).toBe(true)
    expect(await backends('orphan-pg-1')).toBe(0)
    const [alive] = await db.sql`select 1 from pg_stat_activity where pid = ${handle.pid as number}`
    expect(alive).toBeUndefined()
  })

  it('leaves alone a session that only has the same pid, and refuses a handle it cannot read', async () => {
    const own = await db.sql.reserve()
    try {
      const [{ pid }] = await own<{ pid: number }[]>`select pg_backend_pid() as pid`
      // the pid of a live session, but another start: the orphan it named is gone, and this one is not touched
      expect(await postgresRunner.cancelOrphan!(config, { pid, started: '2000-01-01 00:00:00+00' })).toBe(true)
      expect(await own`select 1 as alive`).toEqual([{ alive: 1 }])
    } finally {
      own.release()
    }
    expect(await postgresRunner.cancelOrphan!(config, { pid: 'x', started: '' })).toBe(false)
  })
})

describe('stopping a dead worker\'s statement: MySQL', () => {
  const server = { host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.TEST_MYSQL_PORT ?? 3306), user: 'root', password: '' }
  const dbName = `sightline_${process.pid}_${crypto.randomBytes(3).toString('hex')}`
  const config = { host: server.host, port: server.port, user: server.user, passwd: server.password, db: dbName }
  let admin: mysql.Connection
  beforeAll(async () => {
    admin = await mysql.createConnection(server)
    await admin.query(`create database ${dbName}`)
  })
  afterAll(async () => {
    await admin?.query(`drop database if exists ${dbName}`)
    await admin?.end()
  })
  const connections = async (id: number) => {
    const [rows] = await admin.query('select count(*) as n from information_schema.processlist where id = ?', [id])
    return Number((rows as { n: number }[])[0].n)
  }

  it('kills the connection the run reported, and says so once it has gone', async () => {
    const { handle } = await orphan(mysqlRunner, config, "select sleep(60), 'orphan-mysql-1'")
    const id = Number(handle.thread_id)
    expect(await connections(id)).toBe(1)
    expect(await mysqlRunner.cancelOrphan!(config, handle)).toBe(true)
    expect(await connections(id)).toBe(0)
    expect(await mysqlRunner.cancelOrphan!(config, handle)).toBe(true) // already gone
    expect(await mysqlRunner.cancelOrphan!(config, { thread_id: 'x' })).toBe(false)
  })
})

describe('stopping a dead worker\'s statement: ClickHouse', () => {
  let server: ClickHouseServer
  beforeAll(async () => {
    server = await clickhouseServer()
  }, 90_000)
  afterAll(async () => {
    await server?.stop()
  }, 30_000)
  const running = async (marker: string) =>
    Number((await server.admin(`SELECT count() FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`)).trim())

  it('kills every statement of the run it reported, and says so once none is left', async () => {
    const config = { url: server.url, user: 'default', password: '', dbname: 'default' }
    const { handle } = await orphan(clickhouseRunner, config, "SELECT 1; SELECT count(), 'orphan-ch-1' FROM system.numbers")
    await waitUntil(async () => (await running('orphan-ch-1')) === 1, 10_000)
    expect(await clickhouseRunner.cancelOrphan!(config, handle)).toBe(true)
    expect(await running('orphan-ch-1')).toBe(0)
    expect(await clickhouseRunner.cancelOrphan!(config, { run_id: "x' OR 1 = 1 --" })).toBe(false)
  })
})
