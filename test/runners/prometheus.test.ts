import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { prometheusRunner as runner, batchCells } from '../../src/runners/index.ts'
import { prometheusServer, type PrometheusServer } from '../helpers/prometheus.ts'
import { collect, expectRunnerError, opts, silentServer, unansweredPort, waitUntil, WAIT_MS } from './support.ts'
import { expectCancelReachesEngine } from './contract.ts'

/* A real Prometheus (test/helpers/prometheus.ts) scraping itself every second. */
let server: PrometheusServer
beforeAll(async () => {
  server = await prometheusServer()
}, 90_000)
afterAll(() => server?.stop(), 30_000)

const config = () => ({ url: server.url })
const signal = () => new AbortController().signal
const nowSeconds = () => Math.floor(Date.now() / 1000)
/** The queries Prometheus is evaluating now: its active-query log in the storage directory. */
const active = () => fs.readFileSync(path.join(server.dir, 'data', 'queries.active'), 'utf8')
/**
 * A query Prometheus evaluates for more than a minute, checking between its steps whether it was cancelled (the
 * nested sums are where it checks; a bare selector over that range would not be stopped for many seconds).
 */
const SLOW = 'count_over_time(sum(sum(sum(sum(sum(sum(sum(sum(up))))))))[50h:10ms])'

describe('Prometheus runner', () => {
  it('test() passes, and fails clearly on a closed port, a silent or unreachable host, a wrong path and a non-HTTP URL', async () => {
    await runner.test(config(), signal())
    const closed = await freePort()
    await expectRunnerError(runner.test({ url: `http://127.0.0.1:${closed}` }, signal()), 'connection', `Could not reach http://127.0.0.1:${closed}: ECONNREFUSED`)
    const dropped = await unansweredPort()
    try {
      const ms = await expectRunnerError(runner.test({ url: `http://127.0.0.1:${dropped.port}` }, signal()), 'connection', 'no answer within 1 s')
      expect(ms).toBeLessThan(WAIT_MS)
    } finally {
      await dropped.close()
    }
    const silent = await silentServer()
    try {
      await expectRunnerError(runner.test({ url: `http://127.0.0.1:${silent.port}` }, signal()), 'connection', 'no answer within 1 s')
    } finally {
      await silent.close()
    }
    await expectRunnerError(runner.test({ url: `${server.url}/not-prometheus` }, signal()), 'connection', /answered 404/)
    await expectRunnerError(runner.test({ url: 'ftp://127.0.0.1/' }, signal()), 'connection', 'must start with http:// or https://')
  })

  it('answers an instant query as the established tool does: timestamp, value as text, then the labels', async () => {
    const stream = await runner.run(config(), 'up', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['timestamp', 'datetime'], ['value', 'string'], ['__name__', 'string'], ['instance', 'string'], ['job', 'string'],
    ])
    const { rows } = await collect(stream)
    expect(rows).toEqual([[expect.any(String), '1', 'up', new URL(server.url).host, 'prometheus']])
    expect(Math.abs(Date.parse(rows[0][0] as string) - Date.now())).toBeLessThan(60_000)
  })

  it('runs a range query given as the HTTP API\'s parameters: a row per sample, dates and `now` read as the established tool reads them', async () => {
    // samples a few seconds old exist once the server has scraped for that long
    await waitUntil(async () => ((await server.api(`/api/v1/query?query=up&time=${nowSeconds() - 3}`)).data as { result: unknown[] }).result.length > 0)
    const start = nowSeconds() - 3
    const stream = await runner.run(config(), `query=up&start=${start}&end=${start + 2}&step=1`, opts())
    const { rows } = await collect(stream)
    expect(rows.map((r) => [r[0], r[1], r[4]])).toEqual([0, 1, 2].map((i) => [new Date((start + i) * 1000).toISOString(), '1', 'prometheus']))

    // start as a date (no zone: UTC), end `now`, bare PromQL in front
    const from = new Date((nowSeconds() - 2) * 1000)
    const dated = await collect(await runner.run(config(), `up&start=${from.toISOString().slice(0, 19)}&end=now&step=1`, opts()))
    expect(dated.rows[0][0]).toBe(from.toISOString())
    expect(dated.rows.length).toBeGreaterThanOrEqual(2)
  })

  it('shows every series\' labels, and scalars as a single row', async () => {
    // the established tool takes the label columns from the first series only; here the second one's count too
    const stream = await runner.run(config(), 'vector(7) or up', opts())
    expect(stream.columns.map((c) => c.name)).toEqual(['timestamp', 'value', '__name__', 'instance', 'job'])
    const { rows } = await collect(stream)
    expect(rows.map((r) => r.slice(1))).toEqual([['7', null, null, null], ['1', 'up', new URL(server.url).host, 'prometheus']])
    const scalar = await runner.run(config(), 'scalar(up)', opts())
    expect(scalar.columns.map((c) => c.name)).toEqual(['timestamp', 'value'])
    expect((await collect(scalar)).rows).toEqual([[expect.any(String), '1']])
  })

  it('says what is wrong with bad PromQL, an empty result, empty text and an unreadable date', async () => {
    await expectRunnerError(runner.run(config(), 'up{', opts()), 'query', /parse error: unexpected end of input inside braces/)
    await expectRunnerError(runner.run(config(), 'sum(', opts()), 'query', /invalid parameter "query".*parse error/)
    await expectRunnerError(runner.run(config(), 'no_such_metric', opts()), 'query', 'query result is empty.')
    await expectRunnerError(runner.run(config(), '  ', opts()), 'query', 'Query is empty.')
    await expectRunnerError(runner.run(config(), 'query=up&start=yesterday-ish&step=1', opts()), 'query', "'start' is neither Unix seconds nor a date: yesterday-ish")
  })

  it('lists metrics with their labels in the schema', async () => {
    const tables = await runner.schema(config(), signal())
    expect(tables.find((t) => t.name === 'up')).toEqual({ name: 'up', columns: [{ name: 'instance' }, { name: 'job' }] })
    expect(tables.find((t) => t.name === 'prometheus_http_requests_total')?.columns.map((c) => c.name)).toEqual(['code', 'handler', 'instance', 'job'])
    expect(tables.length).toBeGreaterThan(50)
  })

  it('a cancel closes the request, and Prometheus stops evaluating the query', async () => {
    // it would run for minutes
    await expectCancelReachesEngine((signal) => runner.run(config(), SLOW, { signal, timeoutMs: 600_000 }), async () => active().includes(SLOW))
  })

  it('the time limit is Prometheus\'s own, reported in Sightline\'s words', async () => {
    await expectRunnerError(runner.run(config(), SLOW, opts(1_000)), 'timeout', 'Query exceeded the time limit of 1 s and was stopped.')
    await waitUntil(async () => !active().includes(SLOW))
  })

  it('streams rows in batches, and refuses an answer larger than a result may be', async () => {
    const end = nowSeconds()
    const text = `query=vector(1)&start=${end - 10_999}&end=${end}&step=1`
    const stream = await runner.run(config(), text, opts())
    const batches: number[] = []
    for await (const batch of stream.batches) batches.push(batchCells(batch).length)
    expect(batches).toEqual([5_000, 5_000, 1_000])
    await expectRunnerError(runner.run(config(), text, { ...opts(), maxResultBytes: 10_000 }), 'query', /larger than 9\.8 KB|larger than 10000 bytes/)
  })
})

describe('Prometheus runner over TLS with client certificates', () => {
  let secure: PrometheusServer
  beforeAll(async () => {
    secure = await prometheusServer({ tls: true })
  }, 90_000)
  afterAll(() => secure?.stop(), 30_000)

  /** The certificate options as the established tool stores them: base64 of the PEM files. */
  const file = (p: string) => fs.readFileSync(p).toString('base64')
  const tlsConfig = (o: { ca?: boolean; client?: boolean; verify?: boolean } = {}) => ({
    url: secure.url,
    ...(o.ca !== false && { ca_cert_File: file(secure.certificates!.ca) }),
    ...(o.client !== false && { cert_File: file(secure.certificates!.clientCert), cert_key_File: file(secure.certificates!.clientKey) }),
    ...(o.verify !== undefined && { verify_ssl: o.verify }),
  })

  it('checks the server against the source\'s root certificate and presents the client certificate', async () => {
    await runner.test(tlsConfig(), signal())
    expect((await collect(await runner.run(tlsConfig(), 'up', opts()))).rows[0][1]).toBe('1')
    expect((await runner.schema(tlsConfig(), signal())).some((t) => t.name === 'up')).toBe(true)
  })

  it('fails clearly without the client certificate, and without a way to trust the server unless told not to check it', async () => {
    await expectRunnerError(runner.test(tlsConfig({ client: false }), signal()), 'connection', /Could not reach https:\/\/127\.0\.0\.1:\d+: .*(CERTIFICATE|ECONNRESET|EPROTO|certificate)/i)
    await expectRunnerError(runner.test(tlsConfig({ ca: false }), signal()), 'connection', /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT/)
    await runner.test(tlsConfig({ ca: false, verify: false }), signal())
  })
})
