/**
 * `npx tsx bench/sources.ts`: MongoDB and Google Sheets each reading 1,000,000 rows, and a MongoDB cancel. The
 * services are the tests' fakes (test/runners/fakes/): MongoDB's wire-protocol fake over a real TCP socket in this
 * process (its collection generated as it is read, never held), the Sheets API answered in process by msw. Rows go
 * through the stored result's caps into the JSON pieces a result is stored as (the database write left out). Prints,
 * per kind: rows, time, the peak RSS of the process meanwhile (sampled every 20 ms), and for MongoDB how long a
 * cancel took to reach the server as killCursors. `BENCH_KINDS=mongodb` measures one kind in a process of its own.
 */
import { setupServer } from 'msw/node'
import { ResultCaps } from '../src/results/index.ts'
import { closeWarmMongoClients, googleSheetsRunner, mongodbRunner, setSourceResolve } from '../src/runners/index.ts'
import type { Runner, RunnerConfig } from '../src/runners/index.ts'
import { fakeMongo } from '../test/runners/fakes/mongodb.ts'
import { fakeSheets } from '../test/runners/fakes/sheets.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const MB = 1024 * 1024
const only = (process.env.BENCH_KINDS ?? 'mongodb,google_spreadsheets').split(',')

function* numbers(count: number) {
  for (let i = 0; i < count; i++) yield { _id: i, n: i, label: `row ${i}` }
}
const mongo = await fakeMongo({ collections: { numbers: () => numbers(ROWS), endless: () => numbers(Number.MAX_SAFE_INTEGER) } })
const sheets = fakeSheets({ book: [{ title: 'Numbers', rowCount: ROWS + 1, rows: (i) => (i === 0 ? ['n', 'label'] : [String(i), `row ${i}`]) }] })
const server = setupServer(...sheets.handlers)
server.listen({ onUnhandledFrame: 'error' })
setSourceResolve(async () => [{ address: '198.51.100.61', family: 4 }])

const storeTurn = () => new Promise((r) => setImmediate(r))

async function readAll(name: string, runner: Runner, config: RunnerConfig, text: string) {
  if (global.gc) global.gc()
  let peak = process.memoryUsage().rss
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const started = performance.now()
  const stream = await runner.run(config, text, { signal: new AbortController().signal, timeoutMs: 600_000 })
  const caps = new ResultCaps({ maxRows: 1_000_000, maxBytes: 100 * MB, maxCellBytes: MB })
  for await (const batch of stream.batches) {
    caps.keep(batch)
    if (caps.stoppedAt) break
    await storeTurn()
  }
  clearInterval(sampler)
  console.log(`${name}: ${caps.rows.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS ${Math.round(peak / MB)} MB`)
}

async function mongoCancel() {
  const controller = new AbortController()
  const stream = await mongodbRunner.run({ connectionString: mongo.url, dbName: 'bench' }, '{"collection": "endless"}', { signal: controller.signal, timeoutMs: 600_000 })
  let aborted = 0
  try {
    for await (const _ of stream.batches) {
      aborted = performance.now()
      controller.abort()
    }
  } catch {
    // cancelled, as asked
  }
  while (mongo.openCursors('endless') > 0) await new Promise((r) => setTimeout(r, 1))
  console.log(`mongodb: a cancel reached the server (killCursors) in ${Math.round(performance.now() - aborted)} ms`)
}

if (only.includes('mongodb')) {
  await readAll('mongodb', mongodbRunner, { connectionString: mongo.url, dbName: 'bench' }, '{"collection": "numbers"}')
  await mongoCancel()
}
if (only.includes('google_spreadsheets')) await readAll('google_spreadsheets', googleSheetsRunner, { jsonKeyFile: sheets.keyFile }, 'book|0')
await closeWarmMongoClients()
await mongo.close()
server.close()
