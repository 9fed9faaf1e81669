/**
 * `npx tsx bench/query-results.ts [join]`: the Query Results source on its two engines (`join`: the join alone).
 *   join     — two stored 100,000-row results joined on a key (target < 1 s), the time from run() to the last row,
 *              and the CPU time the process spent on it (both threads), which a busy machine does not inflate;
 *   million  — one stored 1,000,000-row result referenced and aggregated, with the process's peak resident memory
 *              (the worker thread lives in it; target < 400 MB).
 * The referenced rows arrive as storage hands them to the runner (src/results/store.ts `readChunks`): JSON arrays of
 * 10,000 rows, made as they are read, so the figures are the runner's (load into the scratch database, then query).
 * Each engine's million-row figure runs in a process of its own, so one engine's peak is not the other's.
 */
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import type { QueryReference, Column, QueryResultsResolver } from '../src/runners/index.ts'
import { resultsRunner } from '../src/runners/index.ts'

const CHUNK = 10_000
const encoder = new TextEncoder()

/** A stored result of `rows` rows: (id, customer_id, amount, note), read chunk by chunk. */
function storedResult(rows: number, customers: number): { columns: Column[]; batches: AsyncIterable<Uint8Array> } {
  const columns: Column[] = [
    { name: 'id', friendly_name: 'id', type: 'integer' }, { name: 'customer_id', friendly_name: 'customer_id', type: 'integer' },
    { name: 'amount', friendly_name: 'amount', type: 'float' }, { name: 'note', friendly_name: 'note', type: 'string' },
  ]
  async function* batches() {
    for (let start = 0; start < rows; start += CHUNK) {
      const chunk: unknown[] = []
      for (let i = start; i < Math.min(rows, start + CHUNK); i++) chunk.push([i, i % customers, (i % 1000) / 10, `note ${i}`])
      yield encoder.encode(JSON.stringify(chunk))
    }
  }
  return { columns, batches: batches() }
}

const resolver = (sizes: Record<number, [number, number]>): QueryResultsResolver => ({
  async load(reference: QueryReference) {
    const [rows, customers] = sizes[reference.queryId]
    return storedResult(rows, customers)
  },
})

async function timed(engine: string, text: string, sizes: Record<number, [number, number]>) {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const stream = await resultsRunner.run({ engine }, text, { signal: new AbortController().signal, timeoutMs: 300_000, queryResults: resolver(sizes) })
  let rows = 0
  for await (const batch of stream.batches) rows += (batch as unknown[]).length
  const used = process.cpuUsage(cpu)
  // CPU time of the whole process (this thread and the engine's): what the run costs whatever else the machine runs
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, rows }
}

const mb = (kb: number) => Math.round(kb / 1024)

if (process.argv[2] === 'million') {
  const engine = process.argv[3]
  const before = process.resourceUsage().maxRSS
  const r = await timed(engine, 'select count(*) as n, sum(amount) as total, count(distinct customer_id) as customers from cached_query_3', { 3: [1_000_000, 5000] })
  console.log(JSON.stringify({ ms: Math.round(r.ms), peakMb: mb(process.resourceUsage().maxRSS), startMb: mb(before) }))
} else {
  const join = `select a.customer_id, count(*) as n, sum(b.amount) as total
                  from cached_query_1 a join cached_query_2 b on b.id = a.id
                 group by a.customer_id`
  const sizes: Record<number, [number, number]> = { 1: [100_000, 1000], 2: [100_000, 1000] }
  const engines = ['sqlite', 'duckdb']
  const joinOnly = process.argv[2] === 'join'
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`)
  console.log('engine   join 100k×100k (median of 5: wall ms, CPU ms)   1M rows referenced (ms, peak RSS)')
  for (const engine of engines) {
    await timed(engine, join, sizes) // warm-up
    const runs: { ms: number; cpuMs: number }[] = []
    for (let i = 0; i < 5; i++) runs.push(await timed(engine, join, sizes))
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[2]
    const wall = median(runs.map((r) => r.ms))
    const cpu = median(runs.map((r) => r.cpuMs))
    const million = joinOnly ? undefined : JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'million', engine], { encoding: 'utf8' }))
    console.log(`${engine.padEnd(8)} ${wall.toFixed(0).padStart(6)} ms, ${cpu.toFixed(0).padStart(5)} ms CPU (target < 1000)   ` +
      (million ? `${million.ms} ms, ${million.peakMb} MB peak (started at ${million.startMb} MB; target < 400)` : ''))
  }
}
