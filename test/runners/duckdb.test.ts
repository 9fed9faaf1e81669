import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_DBPATH, ensureDemoDatabase, provideDemoDatabase } from '../../src/demo/index.ts'
import { duckdbRunner as runner } from '../../src/runners/index.ts'
import { collect, expectRunnerError, opts, sleep, waitUntil, cellBatches } from './support.ts'

let dir: string
let config: { dbpath: string }

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-duckdb-'))
  config = { dbpath: path.join(dir, 'test.duckdb') }
  await collect(await runner.run(config, `
    create table orders (id integer primary key, total decimal(10,2), placed_at timestamp);
    create schema sales;
    create table sales.regions (code varchar, n bigint);
    create view big_orders as select id, total from orders where total > 100;
    insert into orders values (1, 150.5, timestamp '2024-01-02 03:04:05');
    select 1`, opts()))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const signal = () => new AbortController().signal
/** CPU time the process has spent since `since`, in ms: busy DuckDB threads show up here. */
function cpuMsSince(since: NodeJS.CpuUsage) {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

/** CPU time the process spends over `ms`, as a share of one core: busy DuckDB threads show up here. */
async function cpuShare(ms = 400) {
  const before = process.cpuUsage()
  await sleep(ms)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000 / ms
}

describe('DuckDB runner', () => {
  it('test() passes, and fails clearly on a path that cannot be opened', async () => {
    await runner.test(config, signal())
    await runner.test({ dbpath: ':memory:' }, signal())
    await expectRunnerError(runner.test({ dbpath: path.join(dir, 'no/such/dir/x.duckdb') }, signal()), 'connection', /Could not open the DuckDB database .*no\/such\/dir/)
  })

  it('returns columns, types and values: nulls, dates, timestamps, decimals, booleans, unicode, nested, duplicates', async () => {
    const stream = await runner.run({ dbpath: ':memory:' }, `
      select 1::int a, 9007199254740993::bigint big, 42::bigint small, 12.34::decimal(10,2) d, 2.5::double f, true b,
             null::varchar n, date '2024-02-29' dt, timestamp '2024-01-02 03:04:05.678' ts,
             timestamptz '2024-01-02 03:04:05+00' tz, 'héllo ✓ 日本 🎉' u, [1, 2] l, {'k': 1} s, 1 a`, opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['a', 'integer'], ['big', 'integer'], ['small', 'integer'], ['d', 'float'], ['f', 'float'], ['b', 'boolean'],
      ['n', 'string'], ['dt', 'date'], ['ts', 'datetime'], ['tz', 'datetime'], ['u', 'string'], ['l', 'string'],
      ['s', 'string'], ['a1', 'integer'],
    ])
    const { rows } = await collect(stream)
    const [a, big, small, d, f, b, n, dt, ts, tz, u, l, s, a1] = rows[0]
    expect([a, big, small, d, f, b, n, dt, ts, u, l, s, a1]).toEqual(
      [1, '9007199254740993', 42, 12.34, 2.5, true, null, '2024-02-29', '2024-01-02T03:04:05.678', 'héllo ✓ 日本 🎉', [1, 2], { k: 1 }, 1])
    expect(Date.parse(tz as string)).toBe(Date.parse('2024-01-02T03:04:05Z'))
  })

  it('runs several statements and answers with the last; reports engine errors and "no data"', async () => {
    const stream = await runner.run(config, `
      create temp table pets (name varchar, legs int);
      insert into pets values ('cat', 4), ('bird', 2);
      select name, legs from pets order by legs; -- done`, opts())
    expect((await collect(stream)).rows).toEqual([['bird', 2], ['cat', 4]])
    await expectRunnerError(runner.run(config, 'select * from no_such_table', opts()), 'query', /Table with name no_such_table does not exist/)
    await expectRunnerError(runner.run(config, 'create temp table t (a int)', opts()), 'query', 'Query completed but it returned no data.')
  })

  it('streams a large result in batches', async () => {
    const started = performance.now()
    const stream = await runner.run(config, 'select i, md5(i::varchar) as h from range(1, 200001) t(i) order by i', opts())
    let rows = 0
    let batches = 0
    let last: unknown
    for await (const batch of cellBatches(stream)) {
      batches++
      rows += batch.length
      last = batch.at(-1)![0]
      expect(batch.length).toBeLessThanOrEqual(5000 + 2048)
    }
    expect([rows, last]).toEqual([200_000, 200_000])
    expect(batches).toBeGreaterThanOrEqual(30)
    console.info(`duckdb: 200k rows in ${batches} batches, ${Math.round(performance.now() - started)} ms`)
  })

  it('stopping early closes the result; the database stays usable', async () => {
    // a hundred billion rows: the first batch comes only because the result streams
    const stream = await runner.run(config, 'select i from range(100000000000) t(i)', opts())
    for await (const batch of cellBatches(stream)) {
      expect(batch[0]).toEqual([0])
      break
    }
    expect(await cpuShare()).toBeLessThan(0.5)
    expect((await collect(await runner.run(config, 'select count(*) from orders', opts()))).rows).toEqual([[1]])
  })

  // Without the interrupt this statement would run about 2 s and then create its table. The runner answers only once
  // the engine has returned from the statement, so a missing table right after the answer means it was stopped.
  const slowWrite = (table: string) =>
    `create table ${table} as select count(*) as n from range(500000000) t(i) where i % 7 = 3; select 1`
  const tableExists = async (table: string) =>
    (await collect(await runner.run(config, `select count(*) from information_schema.tables where table_name = '${table}'`, opts()))).rows[0][0] === 1

  it('interrupts the statement at the time limit', async () => {
    await expectRunnerError(runner.run(config, slowWrite('after_timeout'), opts(300)).then(collect), 'timeout', /time limit of 300 ms/)
    expect(await tableExists('after_timeout')).toBe(false) // the engine really stopped
  })

  it('cancelling interrupts the statement in the engine', async () => {
    const controller = new AbortController()
    const before = process.cpuUsage()
    const running = runner.run(config, slowWrite('after_cancel'), { signal: controller.signal, timeoutMs: 600_000 }).then(collect)
    // the engine is at work once its threads have spent CPU time (an idle process spends next to none)
    await waitUntil(async () => cpuMsSince(before) > 300)
    controller.abort()
    await expectRunnerError(running, 'cancelled', 'Query cancelled by user.')
    expect(await tableExists('after_cancel')).toBe(false)
    expect(await cpuShare()).toBeLessThan(0.5)
    // and the same statement left alone does finish (the checks above can fail), and only later than the stopped
    // one would have: that one is still not there
    await collect(await runner.run(config, slowWrite('finished'), opts()))
    expect(await tableExists('finished')).toBe(true)
    expect(await tableExists('after_cancel')).toBe(false)
    expect(await tableExists('after_timeout')).toBe(false)
  })

  it('schema() lists tables and views with their columns', async () => {
    const schema = await runner.schema(config, signal())
    const byName = Object.fromEntries(schema.map((t) => [t.name, t.columns]))
    expect(byName.orders).toEqual([{ name: 'id', type: 'INTEGER' }, { name: 'total', type: 'DECIMAL(10,2)' }, { name: 'placed_at', type: 'TIMESTAMP' }])
    expect(byName['sales.regions'].map((c) => c.name)).toEqual(['code', 'n'])
    expect(byName.big_orders.map((c) => c.name)).toEqual(['id', 'total'])
  })
})

describe('DuckDB read-only sources', () => {
  it('reads a file opened read-only and refuses writes with the engine message', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-duckdb-ro-'))
    const file = path.join(dir, 'shop.duckdb')
    await ensureDemoDatabase(file)
    const config = { dbpath: file, read_only: true }
    const stream = await runner.run(config, 'select count(*) as orders from orders', { signal: new AbortController().signal, timeoutMs: 10_000 })
    const rows: unknown[][] = []
    for await (const batch of cellBatches(stream)) rows.push(...batch)
    expect(rows).toEqual([[25000]])
    await expect(async () => {
      const write = await runner.run(config, 'delete from orders', { signal: new AbortController().signal, timeoutMs: 10_000 })
      for await (const _ of write.batches) { /* drain */ }
    }).rejects.toThrow(/read-only|read only/i)
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('DuckDB databases Sightline provides', () => {
  it('opens the demo shop from this process\'s data directory, built on first use, read-only whatever the source says', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-duckdb-bundled-'))
    provideDemoDatabase(dataDir)
    const config = { dbpath: DEMO_DBPATH, read_only: false }
    // two first runs at once build it once
    const [orders, products] = await Promise.all([
      runner.run(config, 'select count(*) as orders from orders', opts()).then(collect),
      runner.run(config, 'select count(*) as products from products', opts()).then(collect),
    ])
    expect([orders.rows, products.rows]).toEqual([[[25000]], [[60]]])
    expect(fs.readdirSync(path.join(dataDir, 'demo'))).toEqual(['shop.duckdb'])
    await expectRunnerError(runner.run(config, 'delete from orders', opts()).then(collect), 'query', /read-only|read only/i)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('names a database it does not provide', async () => {
    await expectRunnerError(runner.run({ dbpath: 'sightline:warehouse' }, 'select 1', opts()).then(collect), 'connection', /Sightline provides no database named "warehouse"/)
  })
})

describe('DuckDB Allowed Directories', () => {
  it('takes a changed list at the next run, for read-only and writable files alike', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-duckdb-allowed-'))
    try {
      for (const name of ['a', 'b']) {
        fs.mkdirSync(path.join(dir, name))
        fs.writeFileSync(path.join(dir, name, 'x.csv'), `v\n${name}\n`)
      }
      const readOnly = path.join(dir, 'ro.duckdb')
      await ensureDemoDatabase(readOnly)
      for (const base of [{ dbpath: readOnly, read_only: true }, { dbpath: path.join(dir, 'rw.duckdb') }]) {
        const read = (allowed: string, from: string) => runner.run({ ...base, allowed_directories: path.join(dir, allowed) }, `select v from read_csv('${dir}/${from}/x.csv')`, opts()).then(collect)
        expect((await read('a', 'a')).rows).toEqual([['a']])
        await expectRunnerError(read('b', 'a'), 'query', /cannot read or write files outside their database and Allowed Directories/)
        expect((await read('b', 'b')).rows).toEqual([['b']])
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
