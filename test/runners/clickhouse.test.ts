import http from 'node:http'
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { clickhouseRunner as runner } from '../../src/runners/index.ts'
import { clickhouseServer, type ClickHouseServer } from './clickhouse-server.ts'
import { collect, silentServer, expectRunnerError, opts, unansweredPort, waitUntil, cellBatches, WAIT_MS } from './support.ts'
import { expectCancelReachesEngine } from './contract.ts'

/* A real ClickHouse (see clickhouse-server.ts), with a password user when this file starts its own. */
const PASSWORD_USER = { user: 'sightline', password: 's3cret' }
let server: ClickHouseServer
let url: string
const dbName = `sightline_${process.pid}_${crypto.randomBytes(3).toString('hex')}`
const admin = (text: string) => server.admin(text)
/** Queries of ours the server is still running (by a marker in their text). */
const running = async (marker: string) =>
  Number((await admin(`SELECT count() FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`)).trim())

beforeAll(async () => {
  server = await clickhouseServer({ users: [PASSWORD_USER] })
  url = server.url
  await admin(`CREATE DATABASE ${dbName}`)
}, 90_000)
afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => {})
  await server.stop()
}, 30_000)

const config = () => ({ url, user: 'default', password: '', dbname: dbName })
const signal = () => new AbortController().signal

describe('ClickHouse runner', () => {
  it('test() passes, and fails clearly on wrong credentials, a closed port and an unreachable host', async () => {
    console.info(`clickhouse: server ${(await admin('SELECT version()')).trim()} at ${url}`)
    await runner.test(config(), signal())
    await expectRunnerError(runner.test({ ...config(), user: 'nobody_here' }, signal()), 'connection', /Could not connect to ClickHouse at .*(Unknown user|Authentication failed)/)
    if (server.own) {
      await runner.test({ ...config(), ...PASSWORD_USER }, signal())
      await expectRunnerError(runner.test({ ...config(), ...PASSWORD_USER, password: 'wrong' }, signal()), 'connection', /Wrong password|Authentication failed/)
    }
    const closed = await freePort()
    const refused = await expectRunnerError(runner.test({ ...config(), url: `http://127.0.0.1:${closed}` }, signal()), 'connection', `Could not connect to ClickHouse at http://127.0.0.1:${closed}: ECONNREFUSED`)
    expect(refused).toBeLessThan(WAIT_MS) // no retrying
    const dropped = await unansweredPort()
    try {
      const unreachable = await expectRunnerError(runner.test({ ...config(), url: `http://127.0.0.1:${dropped.port}` }, signal()), 'connection', `Could not connect to ClickHouse at http://127.0.0.1:${dropped.port}: no answer within 1 s`)
      expect(unreachable).toBeLessThan(WAIT_MS) // the runner gives up by itself; the system would try for minutes
    } finally {
      await dropped.close()
    }
    const silent = await silentServer()
    try {
      const hung = await expectRunnerError(runner.test({ ...config(), url: `http://127.0.0.1:${silent.port}` }, signal()), 'connection', /Could not connect to ClickHouse at http:\/\/127\.0\.0\.1:\d+: no answer within 1 s/)
      expect(hung).toBeLessThan(WAIT_MS) // a service that never answers would hang it forever
    } finally {
      await silent.close()
    }
    await expectRunnerError(runner.test({ ...config(), dbname: 'no_such_db' }, signal()), 'connection', /no_such_db/)
    await expectRunnerError(runner.test({ ...config(), url: 'ftp://127.0.0.1' }, signal()), 'connection', /http:\/\/ or https:\/\//)
  })

  it('returns columns, types and values: nulls, dates, timestamps, decimals, unicode, arrays, duplicates', async () => {
    const stream = await runner.run(config(), `
      SELECT toInt32(1) AS a, toInt64(9007199254740993) AS big, toUInt64(42) AS small, toDecimal64(12.34, 2) AS d,
             2.5 AS f, toDate('2024-02-29') AS dt, toDateTime('2024-01-02 03:04:05') AS ts, NULL AS n,
             toNullable(7) AS nn, 'héllo ✓ 日本 🎉' AS u, [1, 2] AS arr, a`, opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['a', 'integer'], ['big', 'integer'], ['small', 'integer'], ['d', 'float'], ['f', 'float'], ['dt', 'date'],
      ['ts', 'datetime'], ['n', 'string'], ['nn', 'integer'], ['u', 'string'], ['arr', 'string'], ['a1', 'integer'],
    ])
    expect((await collect(stream)).rows).toEqual([
      [1, '9007199254740993', 42, 12.34, 2.5, '2024-02-29', '2024-01-02T03:04:05', null, 7, 'héllo ✓ 日本 🎉', [1, 2], 1],
    ])
  })

  it('runs several statements in one session and answers with the last; reports engine errors and "no data"', async () => {
    await runner.run(config(), `CREATE TABLE ${dbName}.pets (name String, legs UInt8) ENGINE = Memory`, opts()).catch(() => {})
    const stream = await runner.run(config(), `
      INSERT INTO ${dbName}.pets VALUES ('cat', 4), ('bird', 2);
      SELECT name, legs FROM ${dbName}.pets ORDER BY legs; -- done`, opts())
    expect((await collect(stream)).rows).toEqual([['bird', 2], ['cat', 4]])
    await expectRunnerError(runner.run(config(), 'SELECT * FROM no_such_table', opts()), 'query', /Code: 60.*no_such_table/)
    await expectRunnerError(runner.run(config(), `CREATE TABLE ${dbName}.empty (a UInt8) ENGINE = Memory`, opts()), 'query', 'Query completed but it returned no data.')
    await expectRunnerError(runner.run(config(), 'SELECT throwIf(number = 300000) FROM system.numbers', opts()).then(collect), 'query', /Code: 395/)
  })

  it('streams a large result in batches', async () => {
    const started = performance.now()
    const stream = await runner.run(config(), 'SELECT number + 1 AS n, toString(number) AS s FROM system.numbers LIMIT 200000', opts())
    let rows = 0
    let batches = 0
    let last: unknown
    for await (const batch of cellBatches(stream)) {
      batches++
      rows += batch.length
      last = batch.at(-1)![0]
      expect(batch.length).toBeLessThanOrEqual(5000)
    }
    expect([rows, last, batches]).toEqual([200_000, 200_000, 40])
    console.info(`clickhouse: 200k rows in ${batches} batches, ${Math.round(performance.now() - started)} ms`)
  })

  it('stopping early stops the query on the server', async () => {
    const stream = await runner.run(config(), "SELECT number, toString(number), 'early-stop' FROM system.numbers", opts())
    for await (const batch of cellBatches(stream)) {
      expect(batch[0]).toEqual([0, '0', 'early-stop'])
      break
    }
    await waitUntil(async () => (await running('early-stop')) === 0)
  })

  it('the server stops the query at the time limit', async () => {
    const ms = await expectRunnerError(
      runner.run(config(), "SELECT count(), 'timeout-test' FROM system.numbers", opts(1_000)).then(collect), 'timeout', /time limit of 1 s/)
    expect(ms).toBeLessThan(WAIT_MS) // the query never ends by itself
    await waitUntil(async () => (await running('timeout-test')) === 0)
  })

  it('cancelling kills the query on the server', async () => {
    // the query never ends by itself
    await expectCancelReachesEngine((signal) => runner.run(config(), "SELECT count(), 'cancel-test' FROM system.numbers", { signal, timeoutMs: 60_000 }),
      async () => (await running('cancel-test')) === 1)
  })

  it('schema() lists tables and views with their columns', async () => {
    await admin(`CREATE TABLE ${dbName}.orders (id UInt32, total Decimal(10, 2), placed_at DateTime) ENGINE = Memory`)
    await admin(`CREATE VIEW ${dbName}.big_orders AS SELECT id, total FROM ${dbName}.orders WHERE total > 100`)
    const schema = await runner.schema(config(), signal())
    const byName = Object.fromEntries(schema.map((t) => [t.name, t.columns]))
    expect(byName[`${dbName}.orders`]).toEqual([{ name: 'id', type: 'UInt32' }, { name: 'total', type: 'Decimal(10, 2)' }, { name: 'placed_at', type: 'DateTime' }])
    expect(byName[`${dbName}.big_orders`].map((c) => c.name)).toEqual(['id', 'total'])
    expect(schema.some((t) => t.name.startsWith('system.'))).toBe(false)
  })

  it('speaks JSONCompactEachRowWithNamesAndTypes to servers that have it (a local stand-in for a current server)', async () => {
    const seen: URLSearchParams[] = []
    const fake = http.createServer((req, res) => {
      const params = new URL(req.url!, 'http://x').searchParams
      seen.push(params)
      req.resume().on('end', () => {
        res.writeHead(200, { 'Content-Type': 'text/plain' })
        res.end('["n","at","ok"]\n["UInt64","Nullable(DateTime64(3))","Bool"]\n["1","2024-01-02 03:04:05.678",true]\n["18446744073709551615",null,false]\n')
      })
    })
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r))
    try {
      const port = (fake.address() as { port: number }).port
      const stream = await runner.run({ url: `http://127.0.0.1:${port}`, dbname: 'db1', user: 'u', password: 'p' }, 'SELECT 1', opts(5_000))
      expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['n', 'integer'], ['at', 'datetime'], ['ok', 'boolean']])
      expect((await collect(stream)).rows).toEqual([[1, '2024-01-02T03:04:05.678', true], ['18446744073709551615', null, false]])
      expect(seen[0].get('default_format')).toBe('JSONCompactEachRowWithNamesAndTypes')
      expect(seen[0].get('database')).toBe('db1')
      expect(seen[0].get('max_execution_time')).toBe('5')
      expect(seen[0].get('query_id')).toMatch(/^[0-9a-f-]{36}$/)
      expect(seen[0].has('password')).toBe(false) // credentials travel in headers, not in the URL
    } finally {
      fake.close()
    }
  })
})
