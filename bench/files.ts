/**
 * `npx tsx bench/files.ts`: an aggregate over a Files source's file of ROWS rows (1,000,000 by default), as Parquet
 * and as CSV, through the runner a query takes (a private DuckDB locked to the source's directory, a view per file).
 * Prints the median of five runs of each, after one to warm the page cache.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { filesRunner, LOCAL_DIRECTORY, LOCAL_FILES, type LocalFile } from '../src/runners/index.ts'

const ROWS = Number(process.env.ROWS ?? 1_000_000)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-files-'))
const writer = await DuckDBInstance.create(':memory:')
const conn = await writer.connect()
const data = `select i as id, i % 97 as customer, md5(i::text) as note, (i % 1000) / 10.0 as amount,
  timestamp '2024-01-01' + i * interval '1 second' as at from range(${ROWS}) t(i)`
await conn.run(`copy (${data}) to '${dir}/orders.parquet' (format parquet)`)
await conn.run(`copy (${data}) to '${dir}/orders.csv' (format csv, header)`)
conn.closeSync()
writer.closeSync()

const query = 'select customer, count(*) as n, sum(amount) as total from orders group by customer order by total desc limit 10'

async function timed(file: LocalFile): Promise<number> {
  const started = performance.now()
  const stream = await filesRunner.run({ [LOCAL_DIRECTORY]: dir + '/', [LOCAL_FILES]: [file] }, query, { signal: AbortSignal.timeout(60_000), timeoutMs: 60_000 })
  for await (const _ of stream.batches) {
    // drained
  }
  return performance.now() - started
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
for (const [label, file] of [
  ['Parquet', { table: 'orders', path: `${dir}/orders.parquet`, format: 'parquet' }],
  ['CSV', { table: 'orders', path: `${dir}/orders.csv`, format: 'csv' }],
] as const) {
  await timed(file)
  const times: number[] = []
  for (let i = 0; i < 5; i++) times.push(await timed(file))
  const size = fs.statSync(file.path).size / 1024 / 1024
  console.log(`${label} (${ROWS.toLocaleString('en-US')} rows, ${size.toFixed(0)} MB): aggregate median ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`)
}
fs.rmSync(dir, { recursive: true, force: true })
