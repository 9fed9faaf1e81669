/**
 * A published dashboard watched by many people with auto-refresh on, with one real Sightline process (web and worker)
 * on its own embedded PostgreSQL, which is also the engine the widgets' queries run on. Ten chart widgets on trivial
 * queries with stored results (an hour old, as last night's are in the morning); 100 viewers, each a plain HTTP client
 * with its own session doing what the page does on an auto-refresh tick: for each widget, at most four at a time,
 * POST api/queries/{id}/results with max_age 30, then (when the answer is a job) GET api/jobs/{id} as the browser polls
 * and GET api/query_results/{id}. Viewers start spread over the first 30 s and tick every 30 s for 2 minutes.
 * Figures: executions per widget per 30 s interval, counted in Sightline's own executions table (at most 1), and the
 * p99 of those API calls (< 100 ms). `NODE_ENV=production npx tsx bench/dashboard-viewers.ts`; prints the figures and
 * writes bench/dashboard-viewers.json. Only 127.0.0.1; every loop is bounded in count and time.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { useEmbeddedPostgres, connect } from '../src/db/index.ts'
import { cpuMeter } from './cpu.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const WIDGETS = 10
const VIEWERS = 100
const INTERVAL_MS = 30_000
const DURATION_MS = 120_000
/** The page runs a dashboard's widgets at most four at a time (islands/lib/dashboard-widget/slots.ts). */
const SLOTS = 4
/** The browser's polling (islands/lib/editor/use-execution.ts): 500 ms apart start to start, 3 s after ten polls. */
const FAST_POLL_MS = 500
const SLOW_POLL_MS = 3_000
const MAX_POLLS = 20
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-viewers-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 2 })
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined
const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, loadavgBefore: os.loadavg() }
const round = (n: number) => Math.round(n * 10) / 10
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

type Jar = Map<string, string>
const cookieOf = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
const keep = (jar: Jar, res: Response) => {
  for (const line of res.headers.getSetCookie()) {
    const [name, value] = line.split(';')[0].split('=')
    jar.set(name, value)
  }
}
/** One call as the page makes it; throws on a non-2xx answer. `timed` receives its wall time. */
async function call<T>(jar: Jar, method: string, url: string, body?: unknown, timed?: (ms: number, ok: boolean) => void): Promise<T> {
  const began = performance.now()
  let ok = false
  try {
    const res = await fetch(base + url, {
      method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000),
      headers: { cookie: cookieOf(jar), 'x-csrf-token': jar.get('csrf_token') ?? '', 'content-type': 'application/json' },
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`)
    ok = true
    return JSON.parse(text) as T
  } finally {
    timed?.(performance.now() - began, ok)
  }
}
async function signIn(form: Record<string, string>, route: string): Promise<Jar> {
  const jar: Jar = new Map()
  const res = await fetch(base + route, { method: 'POST', redirect: 'manual', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' }, signal: AbortSignal.timeout(30_000) })
  keep(jar, res)
  if (res.status !== 302 || !jar.get('sightline_session')) throw new Error(`POST ${route}: ${res.status}`)
  // the CSRF cookie comes with the first signed-in answer that lacks it
  if (!jar.get('csrf_token')) keep(jar, await fetch(`${base}/api/session`, { headers: { cookie: cookieOf(jar) } }))
  return jar
}

type Job = { id: string; status: number; query_result_id: number | null; error?: string }
const calls: Record<'run' | 'poll' | 'result', number[]> = { run: [], poll: [], result: [] }
let failures = 0
const outcome = { fromStore: 0, polled: 0, failed: 0, unfinished: 0 }
/** Calls over the 100 ms target, by the second of the 30 s interval they began in: do they gather where runs happen? */
const slowBySecond = new Array<number>(INTERVAL_MS / 1000).fill(0)
let firstTick = 0
const timer = (kind: keyof typeof calls) => (ms: number, ok: boolean) => {
  if (!ok) return void failures++
  calls[kind].push(ms)
  if (ms > 100) slowBySecond[Math.floor(((performance.now() - ms - firstTick) % INTERVAL_MS) / 1000)]++
}

/** One widget's refresh on an auto-refresh tick, as the page's execution machine does it. */
async function refreshWidget(jar: Jar, queryId: number) {
  const answer = await call<{ query_result?: unknown; job?: Job }>(jar, 'POST', `/api/queries/${queryId}/results`, { parameters: {}, max_age: INTERVAL_MS / 1000 }, timer('run'))
  // answered with a result (a stored one, or the run it started or joined, which ended within the POST's wait)
  if (answer.query_result) return void outcome.fromStore++
  let job = answer.job!
  let asked = performance.now()
  for (let polls = 0; polls < MAX_POLLS; polls++) {
    if (job.status === 3 && job.query_result_id != null) {
      await call(jar, 'GET', `/api/query_results/${job.query_result_id}`, undefined, timer('result'))
      return void outcome.polled++
    }
    if (job.status === 4) return void outcome.failed++
    await sleep(Math.max(0, (polls < 10 ? FAST_POLL_MS : SLOW_POLL_MS) - (performance.now() - asked)))
    asked = performance.now()
    job = (await call<{ job: Job }>(jar, 'GET', `/api/jobs/${job.id}`, undefined, timer('poll'))).job
  }
  outcome.unfinished++
}

/** Every widget of the dashboard, four at a time. */
async function tick(jar: Jar, queryIds: number[]) {
  const queue = [...queryIds]
  await Promise.all(Array.from({ length: SLOTS }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await refreshWidget(jar, id).catch(() => undefined)
  }))
}

try {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    // a process group of its own, so its CPU can be told from this process's and the rest of the machine's
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], detached: true,
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'all', PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root },
  })
  for (let i = 0; i < 600 && !(await fetch(`${base}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
  const admin = await signIn(ADMIN, '/setup')
  const u = new URL(pg.url)
  const ds = await call<{ id: number }>(admin, 'POST', '/api/data_sources', {
    name: 'Engine', type: 'pg', options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres' },
  })
  const dashboard = await call<{ id: number }>(admin, 'POST', '/api/dashboards', { name: 'Team numbers' })
  const queryIds: number[] = []
  for (let i = 0; i < WIDGETS; i++) {
    // a different text per widget, so each widget has executions of its own to count
    const q = await call<{ id: number }>(admin, 'POST', '/api/queries', { name: `Numbers ${i}`, data_source_id: ds.id, query: `select g as day, (g * ${i + 7}) % 97 as orders from generate_series(1, 30) g` })
    const viz = await call<{ id: number }>(admin, 'POST', '/api/visualizations', { query_id: q.id, type: 'CHART', name: 'Orders', options: { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } } })
    const run = await call<{ job?: Job }>(admin, 'POST', `/api/queries/${q.id}/results`, { parameters: {}, max_age: 0 })
    for (let p = 0; run.job && p < 100 && (await call<{ job: Job }>(admin, 'GET', `/api/jobs/${run.job.id}`)).job.status < 3; p++) await sleep(100)
    await call(admin, 'POST', '/api/widgets', { dashboard_id: dashboard.id, visualization_id: viz.id, options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } } })
    queryIds.push(q.id)
  }
  await call(admin, 'POST', `/api/dashboards/${dashboard.id}`, { is_draft: false })
  await sql`update query_results set retrieved_at = retrieved_at - interval '1 hour'`
  // each viewer is a person of their own: a session each (the same account, signed in 100 times)
  const viewers: Jar[] = []
  for (let i = 0; i < VIEWERS; i++) viewers.push(await signIn({ email: ADMIN.email, password: ADMIN.password }, '/login'))

  const [{ now: dbStart }] = await sql<{ now: Date }[]>`select clock_timestamp() as now`
  const meter = cpuMeter(child.pid!)
  const began = (firstTick = performance.now())
  await Promise.all(viewers.map(async (jar, v) => {
    const offset = (v * INTERVAL_MS) / VIEWERS
    for (let at = offset; at < DURATION_MS; at += INTERVAL_MS) {
      await sleep(Math.max(0, began + at - performance.now()))
      if (performance.now() - began > DURATION_MS + INTERVAL_MS) return // a stalled server must not keep the bench
      await tick(jar, queryIds)
    }
  }))
  const wallS = (performance.now() - began) / 1000
  figures.loadavgAfter = os.loadavg()
  const cpu = meter()
  // cores kept busy: the server (web and worker; its PostgreSQL counts as other), these 100 clients, everything else
  figures.coresBusy = { server: round(cpu.serverS / cpu.wallS * 100) / 100, clients: round(cpu.benchS / cpu.wallS * 100) / 100, other: round(cpu.otherS / cpu.wallS * 100) / 100 }

  // the executions every viewer caused, by widget and 30 s interval since the first tick
  const rows = await sql<{ query_id: number; slot: number; n: number; created: string[]; results_at: (string | null)[] }[]>`
    select e.query_id, floor(extract(epoch from e.created_at - ${dbStart}::timestamptz) / 30)::int as slot, count(*)::int as n,
           array_agg(to_char(e.created_at, 'HH24:MI:SS.MS') order by e.created_at) as created,
           array_agg(to_char(r.retrieved_at, 'HH24:MI:SS.MS') order by e.created_at) as results_at
      from executions e left join query_results r on r.id = e.query_result_id
     where e.created_at >= ${dbStart}::timestamptz and e.query_id = any(${queryIds}::bigint[])
     group by 1, 2 order by 1, 2`
  const worst = Math.max(0, ...rows.map((r) => r.n))
  const all = [...calls.run, ...calls.poll, ...calls.result]
  const stats = (xs: number[]) => ({ count: xs.length, p50Ms: round(percentile(xs, 0.5) ?? NaN), p99Ms: round(percentile(xs, 0.99) ?? NaN), maxMs: round(Math.max(...xs)) })
  Object.assign(figures, {
    viewers: VIEWERS, widgets: WIDGETS, intervalS: INTERVAL_MS / 1000, wallS: round(wallS),
    executions: {
      total: rows.reduce((n, r) => n + r.n, 0), perWidgetIntervalMax: worst, target: 1, ok: worst <= 1,
      perInterval: [0, 1, 2, 3, 4].map((slot) => rows.filter((r) => r.slot === slot).reduce((n, r) => n + r.n, 0)),
      overOne: rows.filter((r) => r.n > 1),
    },
    apiCalls: { all: stats(all), run: stats(calls.run), poll: stats(calls.poll), result: stats(calls.result), failures, slowBySecond, p99TargetMs: 100, ok: (percentile(all, 0.99) ?? Infinity) < 100 && failures === 0 },
    refreshes: outcome,
  })
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'dashboard-viewers.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await new Promise((r) => child!.once('exit', r))
  }
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
