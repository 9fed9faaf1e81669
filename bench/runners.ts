/**
 * `npx tsx bench/runners.ts`: what the PostgreSQL runner adds on top of postgres.js for `SELECT 1`.
 * Starts its own embedded PostgreSQL in a temp dir (or uses BENCH_DATABASE_URL), then times, as medians:
 *   warm     — a pooled postgres.js connection: sql`select 1` (the driver's bare round trip)
 *   fresh    — postgres.js opening a connection, select 1, closing it (what one run needs from the driver)
 *   runner   — postgresRunner.run(config, 'SELECT 1') and reading its rows (connection per run, like the worker)
 * The runner's overhead is runner − fresh (target < 1 ms); runner − warm is the price of a connection per run.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { useEmbeddedPostgres } from '../src/db/index.ts'
import { postgresRunner } from '../src/runners/index.ts'

const N = Number(process.env.BENCH_N ?? 300)

async function median(label: string, n: number, f: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(20, n); i++) await f() // warm-up
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await f()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const r = { label, p50: times[Math.floor(n / 2)], p90: times[Math.floor(n * 0.9)] }
  console.log(`${label.padEnd(8)} p50 ${r.p50.toFixed(3)} ms   p90 ${r.p90.toFixed(3)} ms   (n=${n})`)
  return r
}

let dir: string | undefined
let release = async () => {}
let url = process.env.BENCH_DATABASE_URL
if (!url) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-runners-'))
  fs.chmodSync(dir, 0o755)
  const pg = await useEmbeddedPostgres(dir, 'postgres')
  url = pg.url
  release = () => pg.release()
}
try {
  const u = new URL(url)
  const config = { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: u.pathname.slice(1), sslmode: 'disable' }
  const warmSql = postgres(url, { max: 1, onnotice: () => {} })
  const warm = await median('warm', N, () => warmSql`select 1`)
  await warmSql.end()
  const fresh = await median('fresh', N, async () => {
    const sql = postgres(url!, { max: 1, prepare: false, onnotice: () => {}, connection: { application_name: 'bench' } })
    await sql.unsafe('select 1').values()
    await sql.end({ timeout: 1 })
  })
  const signal = new AbortController().signal
  const runner = await median('runner', N, async () => {
    const stream = await postgresRunner.run(config, 'SELECT 1', { signal, timeoutMs: 30_000 })
    for await (const _ of stream.batches) {
      // read
    }
  })
  console.log(`runner overhead over the driver doing the same work: ${(runner.p50 - fresh.p50).toFixed(3)} ms (p50)`)
  console.log(`a connection per run costs over a warm connection:    ${(runner.p50 - warm.p50).toFixed(3)} ms (p50)`)
} finally {
  await release()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
}
