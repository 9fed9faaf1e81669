import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/embedded.ts'
import { clickhouseRunner as runner } from '../../src/runners/clickhouse.ts'
import { collect, silentServer, expectRunnerError, opts, sleep, unansweredPort, waitUntil, cellBatches, WAIT_MS } from './support.ts'

/*
 * A real ClickHouse: the one answering on 127.0.0.1:8123 if any, else a server this file starts from the
 * `clickhouse-server` binary (.ci/run installs Debian's) with its own config, data dir and free ports.
 */
const PASSWORD_USER = { user: 'sightline', password: 's3cret' }
let url: string
let own: { child: ChildProcess; dir: string } | undefined
const dbName = `sightline_${process.pid}_${crypto.randomBytes(3).toString('hex')}`

async function answers(u: string) {
  try {
    return (await fetch(`${u}/ping`, { signal: AbortSignal.timeout(500) })).ok
  } catch {
    return false
  }
}

async function startServer(): Promise<string> {
  const bin = ['/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server'].find((p) => fs.existsSync(p))
  if (!bin) throw new Error('no ClickHouse on 127.0.0.1:8123 and no clickhouse-server binary: .ci/run installs it')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-clickhouse-'))
  const [http, tcp] = [await freePort(), await freePort()]
  fs.writeFileSync(path.join(dir, 'config.xml'), `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/data/tmp/</tmp_path>
  <user_files_path>${dir}/data/user_files/</user_files_path>
  <format_schema_path>${dir}/data/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
</yandex>`)
  const user = (name: string, password: string) =>
    `<${name}><password>${password}</password><networks><ip>::/0</ip></networks><profile>default</profile><quota>default</quota></${name}>`
  fs.writeFileSync(path.join(dir, 'users.xml'), `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users>${user('default', '')}${user(PASSWORD_USER.user, PASSWORD_USER.password)}</users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>`)
  const child = spawn(bin, [`--config-file=${path.join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  own = { child, dir }
  const u = `http://127.0.0.1:${http}`
  const started = Date.now()
  while (!(await answers(u))) {
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`clickhouse-server did not start:\n${output}`)
    await sleep(100)
  }
  return u
}

async function admin(text: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', body: text })
  const body = await res.text()
  if (!res.ok) throw new Error(body)
  return body
}
/** Queries of ours the server is still running (by a marker in their text). */
const running = async (marker: string) =>
  Number((await admin(`SELECT count() FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`)).trim())

beforeAll(async () => {
  url = (await answers('http://127.0.0.1:8123')) ? 'http://127.0.0.1:8123' : await startServer()
  await admin(`CREATE DATABASE ${dbName}`)
}, 90_000)
afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => {})
  if (own) {
    own.child.kill('SIGTERM')
    await new Promise((r) => (own!.child.exitCode !== null ? r(null) : own!.child.once('exit', r)))
    fs.rmSync(own.dir, { recursive: true, force: true })
  }
}, 30_000)

const config = () => ({ url, user: 'default', password: '', dbname: dbName })
const signal = () => new AbortController().signal

describe('ClickHouse runner', () => {
  it('test() passes, and fails clearly on wrong credentials, a closed port and an unreachable host', async () => {
    console.info(`clickhouse: server ${(await admin('SELECT version()')).trim()} at ${url}`)
    await runner.test(config(), signal())
    await expectRunnerError(runner.test({ ...config(), user: 'nobody_here' }, signal()), 'connection', /Could not connect to ClickHouse at .*(Unknown user|Authentication failed)/)
    if (own) {
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
    const controller = new AbortController()
    const run = runner.run(config(), "SELECT count(), 'cancel-test' FROM system.numbers", { signal: controller.signal, timeoutMs: 60_000 })
    await waitUntil(async () => (await running('cancel-test')) === 1)
    controller.abort()
    await expectRunnerError(run, 'cancelled', 'Query cancelled by user.')
    await waitUntil(async () => (await running('cancel-test')) === 0) // the query never ends by itself
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
