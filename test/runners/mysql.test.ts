import crypto from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mysqlRunner as runner } from '../../src/runners/index.ts'
import { cancelWhileStreaming, collect, expectRunnerError, opts, silentServer, unansweredPort, waitUntil, cellBatches, WAIT_MS } from './support.ts'
import { expectCancelReachesEngine } from './contract.ts'

// MariaDB (or MySQL) on 127.0.0.1:3306 as root without a password; .ci/run installs and starts Debian's MariaDB.
const server = { host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.TEST_MYSQL_PORT ?? 3306), user: 'root', password: '' }
const dbName = `sightline_${process.pid}_${crypto.randomBytes(3).toString('hex')}`
let admin: mysql.Connection
const config = { host: server.host, port: server.port, user: server.user, passwd: server.password, db: dbName }

beforeAll(async () => {
  admin = await mysql.createConnection({ ...server, multipleStatements: true })
  await admin.query(`create database ${dbName} character set utf8mb4`)
  await admin.query(`use ${dbName}`)
})
afterAll(async () => {
  await admin?.query(`drop database if exists ${dbName}`)
  await admin?.end()
})

const signal = () => new AbortController().signal
/** Statements of our test database still running on the server, other than the admin connection's. */
const running = async (like: string) => {
  const [rows] = await admin.query(
    `select count(*) as n from information_schema.processlist where db = ? and info like ? and id <> connection_id()`, [dbName, like])
  return Number((rows as { n: number }[])[0].n)
}

describe('MySQL runner (MariaDB)', () => {
  it('test() passes, and fails clearly on a wrong password, a closed port and an unreachable host', async () => {
    await runner.test(config, signal())
    await admin.query(`create user if not exists 'sl_${dbName}'@'127.0.0.1' identified by 'right'`)
    await expectRunnerError(runner.test({ ...config, user: `sl_${dbName}`, passwd: 'wrong' }, signal()), 'connection', /Access denied for user/)
    await admin.query(`drop user 'sl_${dbName}'@'127.0.0.1'`)
    const refused = await expectRunnerError(runner.test({ ...config, port: 1 }, signal()), 'connection', /Could not connect to MySQL at 127\.0\.0\.1:1: .*ECONNREFUSED/)
    expect(refused).toBeLessThan(WAIT_MS) // no retrying
    const dropped = await unansweredPort()
    try {
      const unreachable = await expectRunnerError(runner.test({ ...config, host: '127.0.0.1', port: dropped.port }, signal()), 'connection', new RegExp(`Could not connect to MySQL at 127\\.0\\.0\\.1:${dropped.port}: .*ETIMEDOUT`))
      expect(unreachable).toBeLessThan(WAIT_MS) // the runner gives up by itself; the system would try for minutes
    } finally {
      await dropped.close()
    }
    const silent = await silentServer()
    try {
      const hung = await expectRunnerError(runner.test({ ...config, host: '127.0.0.1', port: silent.port }, signal()), 'connection', /Could not connect to MySQL at 127\.0\.0\.1:\d+: .*ETIMEDOUT/)
      expect(hung).toBeLessThan(WAIT_MS) // a service that never answers would hang it forever
    } finally {
      await silent.close()
    }
    await expectRunnerError(runner.test({ ...config, db: 'no_such_db_here' }, signal()), 'connection', /Unknown database/)
  })

  it('returns columns, types and values: nulls, dates, timestamps, decimals, booleans, unicode, duplicates', async () => {
    await admin.query(`create table kinds (
      i int, big bigint, huge bigint unsigned, d decimal(10,2), f double, b boolean, dt date, ts datetime(3), t timestamp,
      s varchar(50), j json, bin varbinary(4), bits bit(8), nothing text)`)
    await admin.query(`insert into kinds values (1, 42, 18446744073709551615, 12.34, 2.5, true, '2024-02-29',
      '2024-01-02 03:04:05.678', '2024-01-02 03:04:05', 'héllo ✓ 日本 🎉', '{"x": [1, null]}', x'0102', b'101', null)`)
    const stream = await runner.run(config, 'select *, i as i from kinds', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['i', 'integer'], ['big', 'integer'], ['huge', 'integer'], ['d', 'float'], ['f', 'float'], ['b', 'integer'],
      ['dt', 'date'], ['ts', 'datetime'], ['t', 'datetime'], ['s', 'string'], ['j', 'string'], ['bin', 'string'],
      ['bits', 'integer'], ['nothing', 'string'], ['i1', 'integer'],
    ])
    const { rows } = await collect(stream)
    expect(rows).toEqual([[1, 42, '18446744073709551615', 12.34, 2.5, 1, '2024-02-29', '2024-01-02T03:04:05.678',
      '2024-01-02T03:04:05', 'héllo ✓ 日本 🎉', { x: [1, null] }, '0x0102', 5, null, 1]])
  })

  it('runs several statements and answers with the last result set', async () => {
    const stream = await runner.run(config, `
      create temporary table pets (name text, legs int);
      insert into pets values ('cat', 4), ('bird', 2);
      select name, legs from pets order by legs;
      set @done = 1`, opts())
    expect(stream.columns.map((c) => c.name)).toEqual(['name', 'legs'])
    expect((await collect(stream)).rows).toEqual([['bird', 2], ['cat', 4]])
  })

  it('reports the engine message for bad SQL, and "no data" for statements without a result', async () => {
    await expectRunnerError(runner.run(config, 'select * from no_such_table', opts()), 'query', `Table '${dbName}.no_such_table' doesn't exist`)
    await expectRunnerError(runner.run(config, 'select 1; select * from no_such_table', opts()), 'query', /no_such_table/)
    await expectRunnerError(runner.run(config, 'create temporary table t (a int)', opts()), 'query', 'No data was returned.')
  })

  it('streams a large result in batches', async () => {
    await admin.query('create table numbers (n int primary key, label varchar(40))')
    await admin.query(`insert into numbers select seq, md5(seq) from seq_1_to_200000`)
    const started = performance.now()
    const stream = await runner.run(config, 'select n, label from numbers order by n', opts())
    let rows = 0
    let batches = 0
    let last: unknown
    for await (const batch of cellBatches(stream)) {
      batches++
      rows += batch.length
      last = batch.at(-1)![0]
      expect(batch.length).toBeLessThanOrEqual(5000)
    }
    expect([rows, last]).toEqual([200_000, 200_000])
    expect(batches).toBeGreaterThanOrEqual(40)
    console.info(`mysql: 200k rows in ${batches} batches, ${Math.round(performance.now() - started)} ms`)
  })

  it('stopping early stops the statement on the server', async () => {
    const stream = await runner.run(config, 'select a.n, b.n from numbers a, numbers b /* early-stop */', opts())
    for await (const batch of cellBatches(stream)) {
      expect(batch.length).toBe(5000)
      break
    }
    await waitUntil(async () => (await running('%early-stop%')) === 0)
  })

  it('asks the server to stop at the time limit', async () => {
    const ms = await expectRunnerError(
      runner.run(config, 'select count(*) from numbers a, numbers b /* timeout-test */', opts(500)).then(collect), 'timeout', /time limit of 500 ms/)
    expect(ms).toBeLessThan(WAIT_MS) // the statement would take hours
    await waitUntil(async () => (await running('%timeout-test%')) === 0)
  })

  it('cancelling stops the statement on the server (KILL QUERY)', async () => {
    // long before its 300 s are up
    await expectCancelReachesEngine((signal) => runner.run(config, 'select sleep(300) as slept', { signal, timeoutMs: 600_000 }),
      async () => (await running('%sleep(300)%')) === 1)
  })

  it('cancelling while rows stream stops the stream', async () => {
    const controller = new AbortController()
    const stream = await runner.run(config, 'select n from numbers /* stream-cancel */', { signal: controller.signal, timeoutMs: 60_000 })
    await cancelWhileStreaming(stream, controller)
    await waitUntil(async () => (await running('%stream-cancel%')) === 0)
  })

  it('schema() lists tables and views with their columns; other databases are prefixed', async () => {
    await admin.query(`create table orders (id int primary key, total decimal(10,2), placed_at datetime)`)
    await admin.query(`create view big_orders as select id, total from orders where total > 100`)
    const schema = await runner.schema(config, signal())
    const byName = Object.fromEntries(schema.map((t) => [t.name, t.columns]))
    expect(byName.orders).toEqual([{ name: 'id', type: 'int(11)' }, { name: 'total', type: 'decimal(10,2)' }, { name: 'placed_at', type: 'datetime' }])
    expect(byName.big_orders.map((c) => c.name)).toEqual(['id', 'total'])
    expect(schema.some((t) => /^(mysql|sys|information_schema|performance_schema)\./.test(t.name))).toBe(false)
    const other = await runner.schema({ ...config, db: 'test' }, signal())
    expect(other.find((t) => t.name === `${dbName}.orders`)).toBeTruthy()
  })
})
