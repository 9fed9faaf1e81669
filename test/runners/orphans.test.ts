import crypto from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clickhouseRunner, mysqlRunner, closeWarmPostgresConnections, postgresRunner } from '../../src/runners/index.ts'
import type { Runner, RunnerConfig, StatementHandle } from '../../src/runners/index.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { clickhouseServer, type ClickHouseServer } from './clickhouse-server.ts'
import { collect, postgresConfig, waitUntil } from './support.ts'

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
    await waitUntil(async () => (await backends('orphan-pg-1')) === 1, 30_000)
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

  it('counts a write as stopped only once its transaction was rolled back, not once it has finished', async () => {
    await db.sql`create table orphan_log (n int)`
    const lock = await holdLock(db.sql)
    try {
      const { handle } = await orphan(postgresRunner, config, `insert into orphan_log ${lock.query('1')} returning n`)
      expect(handle).toMatchObject({ writes: 1, transaction: 1, xid: expect.stringMatching(/^\d+$/) })
      await waitUntil(async () => (await db.sql`select 1 from pg_stat_activity where pid = ${handle.pid as number} and wait_event_type = 'Lock'`).length === 1)
      expect(await postgresRunner.cancelOrphan!(config, handle)).toBe(true)
    } finally {
      await lock.release()
    }
    expect(await db.sql`select n from orphan_log`).toEqual([])

    // a run that ended and committed: its backend no longer runs it, and its row is there to stay
    let handle: StatementHandle | undefined
    const run = await postgresRunner.run(config, 'insert into orphan_log values (2) returning n', { signal: new AbortController().signal, timeoutMs: 0, onStatement: (h) => (handle = h) })
    await collect(run)
    expect(await postgresRunner.cancelOrphan!(config, handle!)).toBe(false)
    expect(await db.sql`select n from orphan_log`).toEqual([{ n: 2 }])
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

  it('counts a write as stopped only when the kill ended it inside its transaction, not once it has finished', async () => {
    await admin.query(`create table ${dbName}.gate (n int primary key) engine = InnoDB`)
    await admin.query(`create table ${dbName}.log (n int) engine = InnoDB`)
    await admin.query(`insert into ${dbName}.gate values (1)`)
    const holder = await mysql.createConnection({ ...server, database: dbName })
    await holder.query('start transaction')
    await holder.query('select n from gate for update')
    const logged = async () => (await admin.query(`select n from ${dbName}.log order by n`))[0]
    try {
      const { handle, run } = await orphan(mysqlRunner, config, 'insert into log (n) select n from gate lock in share mode; select count(*) from log')
      // read as a worker reads it, so each statement is sent when the last one is done
      run.then((result) => collect(result as never)).catch(() => {})
      expect(handle).toMatchObject({ writes: 1, transaction: 1 })
      await waitUntil(async () => {
        // the insert is running, held by the gate's lock (the processlist shows it whatever InnoDB lists of it)
        const [rows] = await admin.query(`select count(*) as n from information_schema.processlist where id = ? and command = 'Query' and info like 'insert into log%'`, [handle.thread_id])
        return Number((rows as { n: number }[])[0].n) === 1
      })
      expect(await mysqlRunner.cancelOrphan!(config, handle)).toBe(true)
    } finally {
      await holder.query('rollback')
      await holder.end()
    }
    expect(await logged()).toEqual([])

    // a run that ended and committed: its connection is gone, and its rows are there to stay
    let handle: StatementHandle | undefined
    const run = await mysqlRunner.run(config, 'insert into log values (2); select count(*) from log', { signal: new AbortController().signal, timeoutMs: 0, onStatement: (h) => (handle = h) })
    expect((await collect(run)).rows).toEqual([[1]])
    expect(await mysqlRunner.cancelOrphan!(config, handle!)).toBe(false)
    // one statement without a result set: kept, and said to have returned no data
    await expect(mysqlRunner.run(config, 'insert into log values (3)', { signal: new AbortController().signal, timeoutMs: 0 })).rejects.toThrow('No data was returned.')
    expect(await logged()).toEqual([{ n: 2 }, { n: 3 }])
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
    await waitUntil(async () => (await running('orphan-ch-1')) === 1, 30_000)
    expect(await clickhouseRunner.cancelOrphan!(config, handle)).toBe(true)
    expect(await running('orphan-ch-1')).toBe(0)
    expect(await clickhouseRunner.cancelOrphan!(config, { run_id: "x' OR 1 = 1 --" })).toBe(false)
  })

  it('counts a run that may write as stopped only when the kill ended it, not once it has finished', async () => {
    const config = { url: server.url, user: 'default', password: '', dbname: 'default' }
    await server.admin('CREATE TABLE IF NOT EXISTS orphan_log (n UInt64) ENGINE = Memory')
    await server.admin('TRUNCATE TABLE orphan_log')
    // scans for a number it never finds, so runs until killed, inserting nothing meanwhile
    const { handle } = await orphan(clickhouseRunner, config,
      "INSERT INTO orphan_log SELECT number FROM system.numbers WHERE number = 18446744073709551615 AND toString(number) != 'orphan-ch-2'")
    expect(handle).toMatchObject({ writes: 1 })
    await waitUntil(async () => (await running('orphan-ch-2')) === 1, 30_000)
    expect(await clickhouseRunner.cancelOrphan!(config, handle)).toBe(true)
    expect(await running('orphan-ch-2')).toBe(0)

    // a run that ended: nothing left to kill, and its row is in
    let ended: StatementHandle | undefined
    const run = await clickhouseRunner.run(config, 'INSERT INTO orphan_log VALUES (1); SELECT count() FROM orphan_log',
      { signal: new AbortController().signal, timeoutMs: 0, onStatement: (h) => (ended = h) })
    expect((await collect(run)).rows).toEqual([[1]])
    expect(await clickhouseRunner.cancelOrphan!(config, ended!)).toBe(false)
  })
})
