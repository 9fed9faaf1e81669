/**
 * One huge value must not freeze the server. Sightline runs as `npm start` runs it (web server and worker in one
 * process, the default caps) on its own embedded PostgreSQL, which is also the engine queried. While a prober asks
 * GET /ping every 10 ms, the bench runs
 *   1. `select repeat('z', 600*1024*1024)`: one statement, whose value PostgreSQL cuts to the cell cap itself;
 *   2. `select 1; select repeat('z', 300*1024*1024)`: several statements, which no engine-side cut reaches, so the
 *      value arrives whole and only the result writer cuts it (300 MB: a JavaScript string holds at most 512 MB);
 * and reports the longest time /ping went unanswered (target: never over 100 ms), the process's peak memory, the
 * engine's (sampled), and whether the stored result's JSON view and CSV download work. For scale, /ping is also
 * probed while the engine makes the same 600 MB value without sending it (`select length(repeat(…))`, run by the
 * bench itself): on a busy 2-core machine the engine's own work delays /ping too. The CPU Sightline used during a
 * case bounds how long it can itself have held /ping up; the machine's load average is given beside.
 * `NODE_ENV=production npx tsx bench/huge-cell.ts [--only=single,several]`; prints a table and writes bench/huge-cell.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { useEmbeddedPostgres, connect } from '../src/db/index.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const PING_EVERY_MS = 10
const TARGET_GAP_MS = 100
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',')
const CASES = [
  { name: 'single', label: "select repeat('z', 600 MB)", query: "select repeat('z', 600*1024*1024) as wide" },
  { name: 'several', label: "select 1; select repeat('z', 300 MB)", query: "select 1; select repeat('z', 300*1024*1024) as wide" },
].filter((c) => !only || only.includes(c.name))

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-huge-cell-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 2 })
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined

const statusOf = (pid: number) => fs.readFileSync(`/proc/${pid}/status`, 'utf8')
/** Peak resident memory of a process so far (VmHWM), in MB. */
const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(statusOf(pid))![1]) / 1024
/** CPU (user + system) the process has used so far, in ms: no stall of its own can be longer than what it used. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
/** Resident memory of every process of the embedded PostgreSQL (postmaster and backends) now, in MB. */
function engineRssMb(postmaster: number): number {
  let kb = 0
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const status = statusOf(Number(entry))
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1])
      if (Number(entry) === postmaster || ppid === postmaster) kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    } catch { /* gone meanwhile */ }
  }
  return kb / 1024
}

let cookie = ''
let csrf = ''
const api = (method: string, url: string, body?: unknown) => fetch(base + url, {
  method, body: body === undefined ? undefined : JSON.stringify(body),
  headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
})

/** Asks /ping every 10 ms, one question at a time, until stopped; the longest wait for an answer is the figure. */
function probe() {
  let stopped = false
  const latencies: number[] = []
  let longestGap = 0
  const done = (async () => {
    let lastAnswer = performance.now()
    while (!stopped) {
      const asked = performance.now()
      const res = await fetch(`${base}/ping`)
      await res.arrayBuffer()
      const now = performance.now()
      latencies.push(now - asked)
      longestGap = Math.max(longestGap, now - lastAnswer)
      lastAnswer = now
      await sleep(PING_EVERY_MS)
    }
  })()
  return {
    async stop() {
      stopped = true
      await done
      const sorted = [...latencies].sort((a, b) => a - b)
      return { pings: latencies.length, p99Ms: +sorted[Math.floor(sorted.length * 0.99)].toFixed(1), longestMs: +sorted.at(-1)!.toFixed(1), longestGapMs: +longestGap.toFixed(1) }
    },
  }
}

async function settle(job: { id: string }): Promise<{ status: number; query_result_id: number; error: string }> {
  for (;;) {
    const { job: now } = await (await api('GET', `/api/jobs/${job.id}`)).json()
    if (now.status >= 3) return now
    await sleep(200)
  }
}

const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length }
try {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'all', PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root },
  })
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/ping`).then((r) => r.ok, () => false)) break
    await sleep(100)
  }
  const setup = await fetch(`${base}/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  const cookies = setup.headers.getSetCookie().map((c) => c.split(';')[0])
  cookie = cookies.join('; ')
  csrf = cookies.find((c) => c.startsWith('csrf_token='))?.split('=')[1] ?? ''
  if (!csrf) {
    const session = await fetch(`${base}/api/session`, { headers: { cookie } })
    const more = session.headers.getSetCookie().map((c) => c.split(';')[0])
    cookie = [...cookies, ...more].join('; ')
    csrf = more.find((c) => c.startsWith('csrf_token='))?.split('=')[1] ?? ''
  }
  const u = new URL(pg.url)
  const ds = await (await api('POST', '/api/data_sources', {
    name: 'Engine', type: 'pg',
    options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres', sslmode: 'disable' },
  })).json()
  while (!(await sql`select 1 from worker_heartbeats`).length) await sleep(100)
  const [{ pid: postmaster }] = await sql<{ pid: number }[]>`select pid from pg_stat_activity where backend_type = 'checkpointer'`
  const postmasterPid = Number(/PPid:\s+(\d+)/.exec(statusOf(postmaster))![1])
  const idleMb = Math.round(peakMb(child.pid!))
  {
    const prober = probe()
    await sleep(200)
    const began = performance.now()
    await sql`select length(repeat('z', 600*1024*1024))`
    const ranMs = performance.now() - began
    await sleep(200)
    figures.engineOnly = {
      query: "select length(repeat('z', 600 MB)), beside Sightline", ranMs: Math.round(ranMs), ...(await prober.stop()), loadAverage: +os.loadavg()[0].toFixed(1),
    }
    console.log('engine only', figures.engineOnly)
  }

  for (const c of CASES) {
    try {
      fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5') // each case's own peak (Linux resets VmHWM on 5)
    } catch { /* then the peak so far */ }
    let enginePeak = 0
    const cpuBefore = cpuMs(child.pid!)
    const sampler = setInterval(() => (enginePeak = Math.max(enginePeak, engineRssMb(postmasterPid))), 50)
    const prober = probe()
    await sleep(200)
    const began = performance.now()
    const body = await (await api('POST', '/api/query_results', { data_source_id: ds.id, query: c.query, max_age: 0 })).json()
    const job = body.query_result ? { status: 3, query_result_id: body.query_result.id, error: '' } : await settle(body.job)
    const ranMs = performance.now() - began
    await sleep(200)
    const ping = await prober.stop()
    clearInterval(sampler)
    const sightlineCpuMs = cpuMs(child.pid!) - cpuBefore // the prober's own /ping requests included
    let stored: Record<string, unknown> = { error: job.error }
    if (job.status === 3) {
      const view = await api('GET', `/api/query_results/${job.query_result_id}.json`)
      const viewed = view.ok ? (await view.json()).query_result : undefined
      const csv = await api('GET', `/api/query_results/${job.query_result_id}.csv`)
      const csvBytes = csv.ok ? (await csv.arrayBuffer()).byteLength : 0
      stored = {
        truncated: viewed?.data.truncated ?? false, cellBytes: viewed ? Buffer.byteLength(String(viewed.data.rows[0]?.wide)) : null,
        log: viewed?.data.log, jsonView: view.status, csvDownload: csv.status, csvBytes,
      }
    }
    figures[c.name] = {
      query: c.label, ranMs: Math.round(ranMs), ...ping, blockedOverTarget: ping.longestGapMs > TARGET_GAP_MS, sightlineCpuMs,
      loadAverage: +os.loadavg()[0].toFixed(1),
      peakSightlineMB: Math.round(peakMb(child.pid!)), idleSightlineMB: idleMb, peakEngineMB: Math.round(enginePeak), ...stored,
    }
    console.log(c.label, figures[c.name])
  }
  // cases not run this time keep their last figures
  const file = path.join(import.meta.dirname, 'huge-cell.json')
  const earlier = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
  fs.writeFileSync(file, JSON.stringify({ ...earlier, ...figures }, null, 2) + '\n')
} finally {
  child?.kill('SIGTERM')
  if (child) await new Promise((r) => (child!.exitCode !== null ? r(null) : child!.once('exit', r)))
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
