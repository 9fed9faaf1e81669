/**
 * A million rows at psql's speed. Sightline runs as `npm start` runs it (web server and worker in one process) on its
 * own embedded PostgreSQL, which is also the engine queried. Each round:
 *   1. runs and stores 1,000,000 rows × 4 columns (an integer, a computed integer, an md5 text, a timestamp) through
 *      the API, polled as a script polls (each poll is held by the server until the job ends or 500 ms pass);
 *   2. downloads the result as CSV as a script gets it (no compression asked), then as a browser over plain HTTP gets
 *      it (gzip accepted);
 *   3. runs psql's `\copy (SELECT …) TO STDOUT WITH CSV` of the same SELECT, to /dev/null: the floor.
 * Figures are medians of the rounds: times, ratios to psql (targets ≤ 1.5× without compression, ≤ 2× with gzip), the
 * Sightline process's CPU seconds per stage (user + system, its thread pool included), its peak memory (< 400 MB),
 * and what storing and reading the chunks costs in the codec alone (encode / decode of the last result's chunks,
 * in this process).
 * `NODE_ENV=production npx tsx bench/million-rows.ts`; BENCH_ROUNDS (default 3). Prints a table and adds the figures,
 * by commit, to bench/million-rows.json.
 */
import { spawn, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import * as results from '../src/results/index.ts'
import { ROOT, sleep } from './server.ts'
import { processCpuSeconds } from './cpu.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline } from './sightline.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const ROWS = 1_000_000
const SELECT = `SELECT g AS id, g * 2 AS twice, md5(g::text) AS hash, timestamp '2024-01-01' + g * interval '1 second' AS at FROM generate_series(1, ${ROWS}) g`
const TARGET = { plain: 1.5, gzip: 2, peakMb: 400 }

/** Peak resident memory of a process so far (VmHWM), in MB. */
const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const median = (xs: number[]) => percentile(xs, 0.5)
const psqlBin = ['/usr/lib/postgresql/15/bin/psql', 'psql'].find((p) => !p.includes('/') || fs.existsSync(p))!

const app = await startBenchSightline('million-rows')
try {
  const { admin, sql, pid } = app
  const ds = await admin.api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(app.databaseUrl) })
  for (let i = 0; i < 300 && !(await sql`select 1 from worker_heartbeats`).length; i++) await sleep(100)
  const startMb = peakMb(pid) // what the process holds before any rows: its code, React's renderer, the worker

  async function runAndStore(): Promise<number> {
    const body = await admin.api<{ job?: { id: string }; query_result?: { id: number } }>('POST', '/api/query_results', { data_source_id: ds.id, query: SELECT, max_age: 0 })
    if (body.query_result) return body.query_result.id
    for (;;) {
      const { job } = await admin.api<{ job: { status: number; error: string; query_result_id: number } }>('GET', `/api/jobs/${body.job!.id}`)
      if (job.status === 3) return job.query_result_id
      if (job.status > 3) throw new Error(`the run failed: ${job.error}`)
    }
  }

  async function download(resultId: number, encoding: string) {
    const began = performance.now()
    const res = await fetch(`${app.base}/api/query_results/${resultId}.csv`, { headers: { cookie: admin.cookie, 'accept-encoding': encoding } })
    if (!res.ok) throw new Error(`download: ${res.status}`)
    let bytes = 0
    let lines = 0
    let firstByteMs = 0
    for await (const chunk of res.body!) {
      if (!bytes) firstByteMs = performance.now() - began
      bytes += chunk.length
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++
    }
    if (lines !== ROWS + 1) throw new Error(`the CSV had ${lines} lines, not ${ROWS + 1}`)
    return { ms: performance.now() - began, firstByteMs, bytes, encoding: res.headers.get('content-encoding') ?? 'none' }
  }

  function psqlCopy(): Promise<number> {
    const began = performance.now()
    const child = spawn(psqlBin, [app.databaseUrl, '-qXc', `\\copy (${SELECT}) TO STDOUT WITH CSV`], { stdio: ['ignore', 'ignore', 'inherit'] })
    return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(performance.now() - began) : reject(new Error(`psql exited ${code}`)))))
  }

  interface Round {
    storedMs: number; plainMs: number; plainFirstByteMs: number; gzipMs: number; psqlMs: number; ratioPlain: number; ratioGzip: number
    storeCpuS: number; plainCpuS: number; gzipCpuS: number; csvMB: number
  }
  const rounds: Round[] = []
  let resultId = 0
  for (let r = 0; r < ROUNDS; r++) {
    let cpu = processCpuSeconds(pid)
    const took = () => { const now = processCpuSeconds(pid); const used = now - cpu; cpu = now; return used }
    const t0 = performance.now()
    resultId = await runAndStore()
    const storedMs = performance.now() - t0
    const storeCpuS = took()
    const plain = await download(resultId, 'identity')
    const plainCpuS = took()
    const gzip = await download(resultId, 'gzip, deflate')
    const gzipCpuS = took()
    if (plain.encoding !== 'none' || gzip.encoding !== 'gzip') throw new Error(`downloads came as ${plain.encoding} and ${gzip.encoding}`)
    const psqlMs = await psqlCopy()
    rounds.push({
      storedMs, plainMs: plain.ms, plainFirstByteMs: plain.firstByteMs, gzipMs: gzip.ms, psqlMs,
      ratioPlain: (storedMs + plain.ms) / psqlMs, ratioGzip: (storedMs + gzip.ms) / psqlMs,
      storeCpuS, plainCpuS, gzipCpuS, csvMB: plain.bytes / 1e6,
    })
    console.log(`round ${r + 1}: run and stored ${storedMs.toFixed(0)} ms, CSV ${plain.ms.toFixed(0)} ms, gzip ${gzip.ms.toFixed(0)} ms, psql ${psqlMs.toFixed(0)} ms`)
  }
  const m = (key: keyof Round) => median(rounds.map((x) => x[key]))

  // the codec alone, on the last result's chunks as stored (the code of an older commit may not have it to call:
  // then its figures are left out)
  const { chunkJson, encodeChunk } = results as Partial<typeof results>
  const stored = await sql<{ rows: Uint8Array }[]>`select rows from query_result_chunks where result_id = ${resultId} order by seq`
  // CPU of this process, its thread pool included, so other programs on the machine do not count
  const cpuMs = (since: NodeJS.CpuUsage) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000 }
  let c = process.cpuUsage()
  const texts: Buffer[] = []
  if (chunkJson) for (const chunk of stored) texts.push(await chunkJson(chunk.rows))
  const decodeMs = chunkJson ? cpuMs(c) : NaN
  c = process.cpuUsage()
  if (encodeChunk) for (const text of texts) await encodeChunk([text.subarray(1, -1)])
  const encodeMs = encodeChunk ? cpuMs(c) : NaN
  const storedMB = stored.reduce((n, c) => n + c.rows.byteLength, 0) / 1e6
  const jsonMB = texts.reduce((n, c) => n + c.byteLength, 0) / 1e6

  const peak = peakMb(pid)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  let commit = process.env.BENCH_COMMIT ?? ''
  try {
    commit ||= git('rev-parse', '--short', 'HEAD') + (git('status', '--porcelain', '--', 'src').length ? '+changes' : '')
  } catch {
    commit ||= 'unknown'
  }
  const figures = {
    ...machine(), commit, rounds: ROUNDS,
    runAndStoredMs: Math.round(m('storedMs')), csvPlainMs: Math.round(m('plainMs')), csvFirstByteMs: round(m('plainFirstByteMs')),
    csvGzipMs: Math.round(m('gzipMs')), psqlCopyMs: Math.round(m('psqlMs')),
    ratioPlain: +m('ratioPlain').toFixed(2), ratioGzip: +m('ratioGzip').toFixed(2),
    cpuStoreS: +m('storeCpuS').toFixed(2), cpuCsvPlainS: +m('plainCpuS').toFixed(2), cpuCsvGzipS: +m('gzipCpuS').toFixed(2),
    cpuRunStoreAndPlainCsvS: +(m('storeCpuS') + m('plainCpuS')).toFixed(2),
    peakMB: Math.round(peak), startPeakMB: Math.round(startMb), csvMB: round(m('csvMB')), storedMB: round(storedMB), jsonMB: round(jsonMB), chunks: stored.length,
    codecEncodeMs: Math.round(encodeMs), codecDecodeMs: Math.round(decodeMs), allRounds: rounds,
  }
  const row = (name: string, value: string, target = '', ok = '') => console.log(`| ${name.padEnd(58)} | ${value.padEnd(22)} | ${target.padEnd(8)} | ${ok.padEnd(4)} |`)
  console.log(`\n1,000,000 rows × 4 columns, median of ${ROUNDS} rounds, commit ${commit}, load average ${machine().loadavg.toFixed(2)} at the end`)
  row('Measure', 'Value', 'Target', '')
  row('Run and stored, through the API', `${figures.runAndStoredMs} ms`)
  row('CSV download, no compression asked (first byte)', `${figures.csvPlainMs} ms (${figures.csvFirstByteMs} ms)`)
  row('CSV download, gzip accepted', `${figures.csvGzipMs} ms`)
  row("psql \\copy (SELECT …) TO STDOUT WITH CSV", `${figures.psqlCopyMs} ms`)
  row('Run, stored and downloaded ÷ psql, no compression', `${figures.ratioPlain}×`, `≤ ${TARGET.plain}×`, figures.ratioPlain <= TARGET.plain ? 'ok' : 'MISS')
  row('Run, stored and downloaded ÷ psql, gzip', `${figures.ratioGzip}×`, `≤ ${TARGET.gzip}×`, figures.ratioGzip <= TARGET.gzip ? 'ok' : 'MISS')
  row('Sightline CPU: run + store / CSV / CSV gzip', `${figures.cpuStoreS} / ${figures.cpuCsvPlainS} / ${figures.cpuCsvGzipS} s`)
  row('Sightline peak memory (VmHWM), and before the first round', `${figures.peakMB} MB (${figures.startPeakMB} MB)`, `< ${TARGET.peakMb} MB`, figures.peakMB < TARGET.peakMb ? 'ok' : 'MISS')
  row(`Stored chunks (${figures.chunks}) / their JSON / the CSV`, `${figures.storedMB} / ${figures.jsonMB} / ${figures.csvMB} MB`)
  row('Codec alone, CPU: encode / decode every chunk', `${figures.codecEncodeMs} / ${figures.codecDecodeMs} ms`)

  const file = path.join(import.meta.dirname, 'million-rows.json')
  const earlier = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  fs.writeFileSync(file, JSON.stringify({ ...earlier, [commit]: figures }, null, 2) + '\n')
} finally {
  await app.stop()
}
