/**
 * `npx tsx bench/warehouses.ts`: each HTTP warehouse kind reading 1,000,000 rows over paged answers, and a cancel.
 * The services are the tests' fakes (test/runners/fakes/), answered in process by msw, so the figures are the
 * runner's own cost: every page is parsed, its rows converted and passed through the stored result's caps into the
 * JSON pieces a result is stored as (the database write itself is left out). Prints, per kind: rows, time, the
 * peak RSS of the process meanwhile (sampled every 20 ms) and how long a cancel took to reach the fake service.
 * RSS does not shrink between kinds: `BENCH_KINDS=trino` measures one kind in a process of its own.
 */
import { setupServer } from 'msw/node'
import { ResultCaps } from '../src/results/index.ts'
import { athenaRunner, bigqueryRunner, xpackSqlRunner, openDistroSqlRunner, snowflakeRunner, setSourceResolve, prestoRunner, trinoRunner } from '../src/runners/index.ts'
import type { Runner, RunnerConfig } from '../src/runners/index.ts'
import { fakeAthena } from '../test/runners/fakes/athena.ts'
import { fakeBigQuery } from '../test/runners/fakes/bigquery.ts'
import { fakeElasticsearch } from '../test/runners/fakes/elasticsearch.ts'
import { fakeSnowflake } from '../test/runners/fakes/snowflake.ts'
import { fakeTrino } from '../test/runners/fakes/trino.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const trino = fakeTrino({ origin: 'http://198.51.100.20:8080', pageRows: 10_000 })
const presto = fakeTrino({ origin: 'http://198.51.100.22:8080', prefix: 'X-Presto-', pageRows: 10_000 })
const es = fakeElasticsearch({ origin: 'http://198.51.100.40:9200' })
const bq = fakeBigQuery({ project: 'acme-analytics' })
const sf = fakeSnowflake({ origin: 'https://xy12345.snowflakecomputing.com', account: 'xy12345', user: 'bench', partitionRows: 10_000 })
const aws = fakeAthena({ region: 'eu-west-1', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'bench-secret' })
const server = setupServer(...trino.handlers, ...presto.handlers, ...es.handlers, ...bq.handlers, ...sf.handlers, ...aws.handlers)
server.listen({ onUnhandledFrame: 'error' })
setSourceResolve(async () => [{ address: '198.51.100.60', family: 4 }])

interface Kind {
  name: string
  runner: Runner
  config: RunnerConfig
  large: string
  /** A statement a cancel can stop, and whether the fake saw the stop. */
  slow: string
  stopped: () => boolean
  /** Whether the fake is running `slow` (so the abort comes while it runs). */
  started: () => boolean
}

const kinds: Kind[] = [
  { name: 'trino', runner: trinoRunner, config: { host: '198.51.100.20', username: 'bench' }, large: `SELECT n, label FROM tpch.sf1.numbers LIMIT ${ROWS}`,
    slow: 'SELECT n, label FROM tpch.sf1.numbers LIMIT 999999999', stopped: () => trino.deleted('999999999'), started: () => trino.running('999999999') },
  { name: 'presto', runner: prestoRunner, config: { host: '198.51.100.22' }, large: `SELECT n, label FROM tpch.sf1.numbers LIMIT ${ROWS}`,
    slow: 'SELECT n, label FROM tpch.sf1.numbers LIMIT 999999999', stopped: () => presto.deleted('999999999'), started: () => presto.running('999999999') },
  { name: 'elasticsearch2_XPackSQLElasticSearch', runner: xpackSqlRunner, config: { url: 'http://198.51.100.40:9200' }, large: `SELECT n, label FROM numbers LIMIT ${ROWS}`,
    slow: 'SELECT n, label FROM numbers LIMIT 999999999', stopped: () => !es.open('999999999'), started: () => es.open('999999999') },
  { name: 'elasticsearch2_OpenDistroSQLElasticSearch', runner: openDistroSqlRunner, config: { url: 'http://198.51.100.40:9200' }, large: `SELECT n, label FROM numbers LIMIT ${ROWS}`,
    slow: 'SELECT n, label FROM numbers LIMIT 999999998', stopped: () => !es.open('999999998'), started: () => es.open('999999998') },
  { name: 'bigquery', runner: bigqueryRunner, config: { projectId: 'acme-analytics', jsonKeyFile: bq.keyFile }, large: `SELECT n, label FROM shop.numbers LIMIT ${ROWS}`,
    slow: 'SELECT slow FROM shop.events', stopped: () => bq.cancelled('SELECT slow'), started: () => bq.running('SELECT slow') },
  { name: 'snowflake', runner: snowflakeRunner, config: { account: 'xy12345', user: 'bench', private_key_File: sf.privateKeyFile, warehouse: 'W', database: 'D' },
    large: `SELECT N, LABEL FROM NUMBERS LIMIT ${ROWS}`, slow: 'SELECT SLOW FROM EVENTS', stopped: () => sf.cancelled('SELECT SLOW'), started: () => sf.running('SELECT SLOW') },
  { name: 'athena', runner: athenaRunner, config: { region: 'eu-west-1', aws_access_key: 'AKIDEXAMPLE', aws_secret_key: 'bench-secret', s3_staging_dir: 's3://r/' },
    large: `SELECT n, label FROM numbers LIMIT ${ROWS}`, slow: 'SELECT slow FROM events', stopped: () => aws.stopped('SELECT slow'), started: () => aws.running('SELECT slow') },
]

const MB = 1024 * 1024
const tick = () => new Promise((r) => setTimeout(r, 5))
/**
 * The turn of the event loop a stored chunk's write gives in the real path. msw answers in process without one, so
 * without it a reader would never let the timers (the memory sampler, the cancel) run.
 */
const storeTurn = () => new Promise((r) => setImmediate(r))

async function readAll(kind: Kind) {
  if (global.gc) global.gc()
  let peak = process.memoryUsage().rss
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const started = performance.now()
  const stream = await kind.runner.run(kind.config, kind.large, { signal: new AbortController().signal, timeoutMs: 600_000 })
  const caps = new ResultCaps({ maxRows: 1_000_000, maxBytes: 100 * MB, maxCellBytes: MB })
  let stored = 0
  for await (const batch of stream.batches) {
    const { piece } = caps.keep(batch)
    stored += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length
    if (caps.stoppedAt) break
    await storeTurn()
  }
  const ms = performance.now() - started
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  return { rows: caps.rows, ms, peakMb: peak / MB, storedMb: stored / MB }
}

async function cancel(kind: Kind) {
  const controller = new AbortController()
  const run = kind.runner.run(kind.config, kind.slow, { signal: controller.signal, timeoutMs: 600_000 })
    .then(async (stream) => {
      for await (const _ of stream.batches) await storeTurn()
    })
    .catch(() => {})
  while (!kind.started()) await tick()
  if (!['bigquery', 'snowflake', 'athena'].includes(kind.name)) await new Promise((r) => setTimeout(r, 50)) // rows are streaming by now
  controller.abort()
  const aborted = performance.now()
  while (!kind.stopped()) await tick()
  const ms = performance.now() - aborted
  await run
  return ms
}

console.log(`${ROWS.toLocaleString('en')} rows per kind`)
/** BENCH_KINDS=trino,bigquery measures only those. */
const only = process.env.BENCH_KINDS?.split(',')
for (const kind of kinds.filter((k) => !only || only.includes(k.name))) {
  const read = await readAll(kind)
  const stopMs = await cancel(kind)
  console.log(`${kind.name.padEnd(42)} ${read.rows} rows in ${(read.ms / 1000).toFixed(2)} s, stored JSON ${read.storedMb.toFixed(1)} MB, ` +
    `peak RSS ${read.peakMb.toFixed(0)} MB; cancel reached the service in ${stopMs.toFixed(0)} ms`)
}
server.close()
process.exit(0)
