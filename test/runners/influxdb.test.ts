import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { influxdbRunner as runner } from '../../src/runners/index.ts'
import { influxServer, type InfluxServer } from '../helpers/influxdb.ts'
import { collect, expectRunnerError, opts, silentServer, unansweredPort, waitUntil, WAIT_MS } from './support.ts'

/* A real InfluxDB 1.x (test/helpers/influxdb.ts) with authentication on. */
let server: InfluxServer
const DB = 'metrics'
const BIG_POINTS = 200_000
/**
 * `statement` several times over: an answer (some 70 MB) far larger than what the sockets' buffers and the runner's
 * first read hold, so InfluxDB is still running it while nobody reads.
 */
const large = (statement: string) => Array(6).fill(statement).join('; ')

beforeAll(async () => {
  server = await influxServer()
  await server.createDatabase(DB)
  await server.write(DB, [
    'cpu,host=a,region=eu usage=1.5,cores=4i,state="ok",busy=true 1700000000000000000',
    'cpu,host=b,region=us usage=2,cores=8i,state="héllo ✓" 1700000001000000000',
    'mem,host=a used=3i 1700000000500000000',
  ].join('\n'))
  const lines: string[] = []
  for (let i = 0; i < BIG_POINTS; i++) lines.push(`big,part=p${i % 4} n=${i}i,label="point number ${i}" ${1600000000000000000 + i * 1000000000}`)
  await server.write(DB, lines.join('\n'))
}, 120_000)
afterAll(() => server?.stop(), 30_000)

const host = () => new URL(server.url).host
const dsn = (o: { user?: string; password?: string; db?: string } = {}) =>
  `influxdb://${o.user ?? server.admin.user}:${encodeURIComponent(o.password ?? server.admin.password)}@${host()}/${o.db ?? DB}`
const config = () => ({ url: dsn() })
const signal = () => new AbortController().signal
/** Our queries InfluxDB is running now. */
const running = async (text: string) => {
  const answer = await server.query('SHOW QUERIES')
  return (answer.results[0].series?.[0].values ?? []).filter((v) => String(v[1]).includes(text)).length
}

describe('InfluxDB runner', () => {
  it('test() passes, and fails clearly on wrong credentials, a missing database, closed and silent ports and a bad DSN', async () => {
    await runner.test(config(), signal())
    await runner.test({ url: `influxdb://${server.admin.user}@${host()}/${DB}`, password: server.admin.password }, signal()) // the sealed password
    await expectRunnerError(runner.test({ url: dsn({ password: 'wrong' }) }, signal()), 'connection', `InfluxDB at ${server.url} refused the credentials: authorization failed`)
    await expectRunnerError(runner.test({ url: dsn({ db: 'no_such_db' }) }, signal()), 'connection', 'database not found: no_such_db')
    const closed = await freePort()
    await expectRunnerError(runner.test({ url: `influxdb://127.0.0.1:${closed}/x` }, signal()), 'connection', `Could not reach http://127.0.0.1:${closed}: ECONNREFUSED`)
    for (const hang of [await unansweredPort(), await silentServer()]) {
      try {
        const ms = await expectRunnerError(runner.test({ url: `influxdb://127.0.0.1:${hang.port}/x` }, signal()), 'connection', 'no answer within 1 s')
        expect(ms).toBeLessThan(WAIT_MS)
      } finally {
        await hang.close()
      }
    }
    await expectRunnerError(runner.test({ url: `udp+influxdb://${host()}/x` }, signal()), 'connection', /UDP only takes writes/)
    await expectRunnerError(runner.test({ url: 'not a dsn' }, signal()), 'connection', /not a DSN like influxdb:\/\/user:password@host:8086\/database/)
  })

  it('answers as the established tool: columns then tags of every series, a row per point, types from the values', async () => {
    const stream = await runner.run(config(), 'SELECT * FROM cpu; SELECT mean(used) FROM mem GROUP BY host', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['time', 'datetime'], ['busy', 'boolean'], ['cores', 'integer'], ['host', 'string'], ['region', 'string'], ['state', 'string'],
      ['usage', 'float'], ['mean', 'integer'],
    ])
    expect((await collect(stream)).rows).toEqual([
      ['2023-11-14T22:13:20Z', true, 4, 'a', 'eu', 'ok', 1.5, null],
      ['2023-11-14T22:13:21Z', null, 8, 'b', 'us', 'héllo ✓', 2, null],
      ['1970-01-01T00:00:00Z', null, null, 'a', null, null, null, 3],
    ])
  })

  it('says what is wrong with bad InfluxQL, a missing measurement\'s database and empty text', async () => {
    await expectRunnerError(runner.run(config(), 'SELEC * FROM cpu', opts()), 'query', /^error parsing query: found SELEC, expected SELECT/)
    await expectRunnerError(runner.run({ url: dsn({ db: 'nope' }) }, 'SELECT * FROM cpu', opts()), 'query', 'database not found: nope')
    await expectRunnerError(runner.run(config(), 'SELECT * FROM cpu; SELECT x FROM', opts()), 'query', /error parsing query/)
    await expectRunnerError(runner.run(config(), ' ', opts()), 'query', 'Query is empty.')
    const none = await runner.run(config(), 'SELECT * FROM no_such_measurement', opts())
    expect(none.columns).toEqual([])
    expect((await collect(none)).rows).toEqual([])
  })

  it('lists measurements with their fields (typed) and tags in the schema', async () => {
    const tables = await runner.schema(config(), signal())
    expect(tables.map((t) => t.name)).toEqual(['big', 'cpu', 'mem'])
    expect(tables[1]).toEqual({ name: 'cpu', columns: [
      { name: 'busy', type: 'boolean' }, { name: 'cores', type: 'integer' }, { name: 'state', type: 'string' }, { name: 'usage', type: 'float' },
      { name: 'host', type: 'tag' }, { name: 'region', type: 'tag' },
    ] })
  })

  it('streams a large answer in batches, and a reader that stops early ends the query in InfluxDB', async () => {
    const text = 'SELECT * FROM big GROUP BY part'
    const stream = await runner.run(config(), large(text), opts())
    expect(stream.columns.map((c) => c.name)).toEqual(['time', 'label', 'n', 'part'])
    let rows = 0
    for await (const batch of stream.batches) {
      rows += (batch as unknown[]).length
      if (rows >= 10_000) break // the row cap
    }
    await waitUntil(async () => (await running(text)) === 0)
    const all = await collect(await runner.run(config(), 'SELECT n FROM big', opts()))
    expect(all.rows.length).toBe(BIG_POINTS)
    expect(all.batches).toBeGreaterThan(10)
  })

  it('a cancel closes the request, and InfluxDB stops the query', async () => {
    const text = 'SELECT * FROM big WHERE n >= 0'
    const controller = new AbortController()
    const stream = await runner.run(config(), large(text), { signal: controller.signal, timeoutMs: 600_000 })
    expect(await running(text)).toBe(1) // still writing: nobody reads the rest
    const consume = (async () => {
      for await (const _ of stream.batches) controller.abort()
    })()
    await expectRunnerError(consume, 'cancelled', 'Query cancelled by user.')
    await waitUntil(async () => (await running(text)) === 0)
  })

  it('cuts long values as they arrive and stops before a part of the answer larger than a result', async () => {
    const cut = await runner.run(config(), 'SELECT label FROM big LIMIT 3', { ...opts(), maxCellBytes: 8 })
    expect((await collect(cut)).rows.map((r) => r[1])).toEqual(['point…', 'point…', 'point…'])
    expect(cut.cuts).toEqual({ cells: true, rows: false })
    await expectRunnerError(runner.run(config(), 'SELECT * FROM big', { ...opts(), maxResultBytes: 50_000 }), 'query', /larger than the result may be/)
  })
})
