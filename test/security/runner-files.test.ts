import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureDemoDatabase } from '../../src/demo/index.ts'
import { duckdbRunner, closeWarmPostgresConnections, postgresRunner, sqliteRunner } from '../../src/runners/index.ts'
import type { RunnerConfig } from '../../src/runners/index.ts'
import { addUser, Client, createTestApp, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { collect, expectRunnerError, opts, postgresConfig } from '../runners/support.ts'

// Attacks through a source's query text on the server's own files: reading them, listing folders, writing files,
// opening other database files, loading code, and one member's settings reaching other members' runs.

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-runner-files-'))
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'the server secret')
  fs.writeFileSync(path.join(dir, 'secret.csv'), 'secret\nthe server secret\n')
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const rowsOf = async (runner: typeof duckdbRunner, config: RunnerConfig, text: string) => (await collect(await runner.run(config, text, opts()))).rows
const DUCKDB_REFUSAL = /not allowed on DuckDB sources|DuckDB sources cannot read or write files/

describe('a member on the Demo source, through the API', () => {
  let t: TestApp
  let admin: Client
  let member: Client
  let worker: { stop(): Promise<void> }
  let demoId: number
  const run = async (client: Client, query: string) =>
    outcomeOf(client, await client.post('/api/query_results', { data_source_id: demoId, query, max_age: 0 }))

  beforeAll(async () => {
    t = await createTestApp()
    admin = await setUp(t.app)
    await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })
    member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
    const sources = (await (await admin.get('/api/data_sources')).json()) as { id: number; name: string }[]
    demoId = sources.find((s) => s.name === 'Demo')!.id
    fs.writeFileSync(path.join(t.deps.config.dataDir, 'secret-key'), 'the server secret')
    worker = await startWorkerFor(t)
  })
  afterAll(async () => {
    await worker?.stop()
    await t?.close()
  })

  it('answers ordinary questions, the order_lines view included', async () => {
    const { result, error } = await run(member, 'select count(*) > 0 as any from order_lines')
    expect(error).toBeUndefined()
    expect(result.data.rows).toEqual([{ any: true }])
  })

  it('reads no file of the server and lists no folder', async () => {
    const dataDir = t.deps.config.dataDir
    for (const query of [
      `select content from read_text('${dataDir}/secret-key')`,
      "select content from read_text('/etc/passwd')",
      `select * from read_csv('${dataDir}/secret-key', header = false)`,
      `select * from read_blob('${dataDir}/secret-key')`,
      `select * from glob('${dataDir}/*')`,
      `SELECT /* a comment */ "content" FROM Read_Text ( '${dataDir}/secret-key' )`,
      `with s as (select * from read_text('${dataDir}/secret-key')) select * from s`,
    ]) {
      const { result, error } = await run(member, query)
      expect(result, query).toBeUndefined()
      expect(error, query).toMatch(DUCKDB_REFUSAL)
    }
  })

  it('writes no file', async () => {
    const target = path.join(dir, 'stolen.csv')
    const { error } = await run(member, `copy (select 42) to '${target}'`)
    expect(error).toMatch(DUCKDB_REFUSAL)
    expect(fs.existsSync(target)).toBe(false)
  })

  it("changes no setting of the admin's runs", async () => {
    const before = (await run(admin, "select current_setting('threads') as n")).result.data.rows
    const { error } = await run(member, 'set threads = 1; select 1 as one')
    expect(error).toMatch(DUCKDB_REFUSAL)
    expect((await run(admin, "select current_setting('threads') as n")).result.data.rows).toEqual(before)
  })
})

describe('DuckDB sources', () => {
  let demo: RunnerConfig
  let writable: RunnerConfig
  beforeAll(async () => {
    demo = { dbpath: path.join(dir, 'shop.duckdb'), read_only: true }
    await ensureDemoDatabase(demo.dbpath as string)
    writable = { dbpath: path.join(dir, 'rw.duckdb') }
    await rowsOf(duckdbRunner, writable, 'create table notes (n int); insert into notes values (1); select 1')
  })
  const refused = (config: RunnerConfig, text: string) => expectRunnerError(duckdbRunner.run(config, text, opts()).then(collect), 'query', DUCKDB_REFUSAL)

  it("refuses changing settings in every spelling, so one run never changes another's", async () => {
    for (const config of [demo, writable]) {
      const [[threads]] = await rowsOf(duckdbRunner, config, "select current_setting('threads')")
      for (const text of [
        'set threads = 1; select 1', 'SET GLOBAL threads TO 1; select 1', '/* hi */ SeT\nthreads=1; select 1', 'reset threads; select 1',
        'pragma threads = 1; select 1', "set memory_limit = '1MB'; select 1", 'set variable x = 1; select 1', 'pragma enable_profiling; select 1',
        "set enable_external_access = true; select 1", 'use system; select 1',
      ]) await refused(config, text)
      expect(await rowsOf(duckdbRunner, config, "select current_setting('threads')")).toEqual([[threads]])
    }
  })

  it('refuses ATTACH, DETACH, INSTALL and LOAD', async () => {
    const other = path.join(dir, 'other.duckdb')
    for (const text of [
      `attach '${other}' as other; select 1`, "attach ':memory:' as scratch; select 1", 'detach database if exists scratch; select 1',
      'install httpfs; select 1', 'load httpfs; select 1', `load '${path.join(dir, 'evil.duckdb_extension')}'; select 1`, 'update extensions; select 1',
    ]) await refused(demo, text)
    expect(fs.existsSync(other)).toBe(false)
    expect(await rowsOf(duckdbRunner, demo, 'select count(*) from duckdb_databases() where not internal')).toEqual([[1]])
  })

  it('writes no file: COPY TO and EXPORT DATABASE are refused', async () => {
    for (const config of [demo, writable, { dbpath: ':memory:' }]) {
      await refused(config, `copy (select 1) to '${path.join(dir, 'out.csv')}'; select 1`)
      await refused(config, `export database '${path.join(dir, 'export')}'; select 1`)
    }
    expect(fs.readdirSync(dir).filter((f) => f === 'out.csv' || f === 'export')).toEqual([])
  })

  it('reads no file outside the database, in-memory sources included', async () => {
    const secret = path.join(dir, 'secret.txt')
    for (const config of [demo, writable, { dbpath: ':memory:' }]) {
      for (const text of [
        `select content from read_text('${secret}')`, `select * from read_csv('${secret}')`, `select * from read_parquet('${secret}')`,
        `select * from read_json('${secret}')`, `select * from glob('${dir}/*')`, `select * from read_blob('${dir}/*.txt')`,
      ]) await refused(config, text)
    }
    await refused(writable, `insert into notes select 1 from read_text('${secret}'); select 1`)
    await expectRunnerError(duckdbRunner.run(demo, `select * from '${dir}/secret.csv'`, opts()).then(collect), 'query', /Permission|not allowed|does not exist/)
  })

  it("refuses engine-wide switches, even when a query's text is built at run time", async () => {
    for (const text of [
      "call enable_logging('QueryLog'); select 1", "select * from enable_logging('QueryLog')",
      "select * from query('select * from enable_' || 'logging(''QueryLog'')')", 'call truncate_duckdb_logs(); select 1',
    ]) await refused(demo, text)
    await rowsOf(duckdbRunner, demo, "select 'an admin question' as q")
    expect(await rowsOf(duckdbRunner, demo, "select count(*) from duckdb_logs() where message like '%admin question%'")).toEqual([[0]])
  })

  it('checks a repeated query again once a view it reads may have changed, and never trusts one with temporary objects', async () => {
    await rowsOf(duckdbRunner, writable, 'create or replace view latest as select 1 as n; select 1')
    // found clean, then remembered: the same text runs again without a new check
    for (let i = 0; i < 2; i++) expect(await rowsOf(duckdbRunner, writable, 'select * from latest')).toEqual([[1]])
    // the view now hides an engine-wide switch: the remembered text is planned again and refused
    await rowsOf(duckdbRunner, writable, "create or replace view latest as select * from enable_logging('QueryLog'); select 1")
    await refused(writable, 'select * from latest')
    await rowsOf(duckdbRunner, writable, 'create or replace view latest as select 1 as n; select 1')
    expect(await rowsOf(duckdbRunner, writable, 'select * from latest')).toEqual([[1]])
    // the same, behind a macro
    await rowsOf(duckdbRunner, writable, "create or replace macro sneaky() as table select * from enable_logging('QueryLog'); select 1")
    await rowsOf(duckdbRunner, writable, 'create or replace view latest as select * from sneaky(); select 1')
    await refused(writable, 'select * from latest')
    // a run's own temporary view shadows the shared one only in that run, and is planned as it is
    await rowsOf(duckdbRunner, writable, 'create or replace view latest as select 1 as n; select 1')
    await refused(writable, 'create temp view latest as select * from sneaky(); select * from latest')
    expect(await rowsOf(duckdbRunner, writable, 'select * from latest')).toEqual([[1]])
    expect(await rowsOf(duckdbRunner, writable, "select count(*) from duckdb_logs() where true")).toEqual([[0]])
  })

  it("starts every in-memory run empty: a run's tables, macros and sequences never reach the next one, even when an engine is reused", async () => {
    const memory = { dbpath: ':memory:' }
    const objects = "select (select count(*) from duckdb_tables()) + (select count(*) from duckdb_views() where not internal) + (select count(*) from duckdb_sequences()) + (select count(*) from duckdb_functions() where not internal)"
    for (const text of [
      'create table left_behind as select 42 as n; select n from left_behind',
      "create macro left_behind() as 42; select left_behind()",
      'create sequence left_behind; select nextval(\'left_behind\')',
      'begin; create table t as select 1 as n; commit; select n from t',
    ]) {
      // a run that only reads leaves its engine as it found it, so the next run may be given it
      expect(await rowsOf(duckdbRunner, memory, objects)).toEqual([[0]])
      await rowsOf(duckdbRunner, memory, text)
      expect(await rowsOf(duckdbRunner, memory, objects)).toEqual([[0]])
    }
  })

  it("reads files only in the admin's Allowed Directories, and still writes none there", async () => {
    const shared = path.join(dir, 'shared')
    fs.mkdirSync(shared, { recursive: true })
    fs.writeFileSync(path.join(shared, 'cities.csv'), 'name,pop\nOslo,700000\n')
    const config = { dbpath: ':memory:', allowed_directories: shared }
    expect(await rowsOf(duckdbRunner, config, `select name, pop from read_csv('${shared}/cities.csv')`)).toEqual([['Oslo', 700000]])
    await refused(config, `select content from read_text('${path.join(dir, 'secret.txt')}')`)
    await refused(config, `select content from read_text('${shared}/../secret.txt')`)
    await refused(config, `copy (select 1) to '${shared}/out.csv'; select 1`)
    expect(fs.existsSync(path.join(shared, 'out.csv'))).toBe(false)
    await expectRunnerError(duckdbRunner.test({ dbpath: ':memory:', allowed_directories: 'relative/dir' }, new AbortController().signal), 'connection', /absolute/)
  })

  it('still runs ordinary work: reads, writes to a writable file, temp tables, transactions, EXPLAIN', async () => {
    expect(await rowsOf(duckdbRunner, demo, 'select count(*) > 0 from order_lines')).toEqual([[true]])
    expect(await rowsOf(duckdbRunner, writable, 'begin; insert into notes values (2); commit; select count(*) from notes')).toEqual([[2]])
    expect(await rowsOf(duckdbRunner, writable, 'create temp table t as select 1 a; select a from t')).toEqual([[1]])
    expect((await rowsOf(duckdbRunner, demo, 'explain select count(*) from orders')).length).toBeGreaterThan(0)
    expect(await rowsOf(duckdbRunner, demo, "select count(*) from (describe orders) where column_name = 'id'")).toEqual([[1]])
  })
})

describe('SQLite sources', () => {
  let config: RunnerConfig
  let other: string
  beforeAll(() => {
    config = { dbpath: path.join(dir, 'app.db') }
    other = path.join(dir, 'other.db')
    for (const [file, sql] of [[config.dbpath as string, 'create table items (n int); insert into items values (1)'], [other, "create table secrets (s text); insert into secrets values ('theirs')"]]) {
      const db = new Database(file)
      db.exec(sql)
      db.close()
    }
  })
  const refused = (text: string) => expectRunnerError(sqliteRunner.run(config, text, opts()).then(collect), 'query', /not allowed on SQLite sources/)

  it('refuses ATTACH however it is written', async () => {
    for (const text of [
      `attach '${other}' as o; select * from o.secrets`, `ATTACH DATABASE '${other}' AS o; select 1`, `/* x */ AtTaCh\n'${other}'\nAS o; select 1`,
      `select 1; -- ;\n attach '${other}' as o; select * from o.secrets`, `attach 'file:${other}?mode=ro' as o; select 1`,
      `attach (select '${other}') as o; select 1`, `attach '${path.join(dir, 'new.db')}' as n; select 1`,
    ]) await refused(text)
    expect(fs.existsSync(path.join(dir, 'new.db'))).toBe(false)
  })

  it('refuses VACUUM INTO, load_extension and the process-wide directory pragmas', async () => {
    const copy = path.join(dir, 'copy.db')
    await refused(`vacuum into '${copy}'; select 1`)
    await refused(`VACUUM main INTO '${copy}'; select 1`)
    expect(fs.existsSync(copy)).toBe(false)
    await refused(`select load_extension('${path.join(dir, 'evil.so')}')`)
    await refused(`pragma temp_store_directory = '${dir}'; select 1`)
    await refused(`PRAGMA "TEMP_STORE_DIRECTORY" = '${dir}'; select 1`)
  })

  it('still runs ordinary work: reads, writes, VACUUM, pragmas about the file, EXPLAIN', async () => {
    expect(await rowsOf(sqliteRunner, config, 'insert into items values (2); vacuum; select count(*) from items')).toEqual([[2]])
    expect(await rowsOf(sqliteRunner, config, "select name from pragma_table_info('items')")).toEqual([['n']])
    expect((await rowsOf(sqliteRunner, config, 'explain select * from items')).length).toBeGreaterThan(0)
    expect((await rowsOf(sqliteRunner, config, 'explain query plan select * from items')).length).toBeGreaterThan(0)
    expect(await rowsOf(sqliteRunner, config, "select 'attach is a word' as t")).toEqual([['attach is a word']])
  })
})

describe('PostgreSQL sources that sign in without superuser', () => {
  let db: TestDatabase
  let config: RunnerConfig
  const role = `reader_${process.pid}_${Date.now().toString(36)}`
  beforeAll(async () => {
    db = await freshDatabase()
    await db.sql.unsafe(`create role ${role} login password 'reader-password' nosuperuser`)
    config = { ...postgresConfig(db.url), user: role, password: 'reader-password' }
  })
  afterAll(async () => {
    await closeWarmPostgresConnections()
    await db?.drop()
    if (db) {
      const { connect } = await import('../../src/db/index.ts')
      const { inject } = await import('vitest')
      const admin = connect(inject('pgAdminUrl'), { max: 1 })
      await admin.unsafe(`drop role if exists ${role}`)
      await admin.end()
    }
  })

  it("are refused the server's files and programs by PostgreSQL itself", async () => {
    expect((await collect(await postgresRunner.run(config, 'select current_user::text', opts()))).rows).toEqual([[role]])
    for (const [text, message] of [
      ["select pg_read_file('/etc/passwd')", /permission denied for function pg_read_file/],
      ["select pg_ls_dir('.')", /permission denied for function pg_ls_dir/],
      ["create temp table t (line text); copy t from program 'id'; select * from t", /permission denied to COPY to or from an external program|must be superuser/],
      [`copy (select 1) to '${path.join(dir, 'pg.csv')}'`, /permission denied to COPY to a file|must be superuser/],
    ] as const) await expectRunnerError(postgresRunner.run(config, text, opts()).then(collect), 'query', message)
  })
})
