/**
 * `SELECT 1` through the API, answered at once (`POST api/query_results`, `max_age: 0`), with one web and one worker
 * process on their own embedded PostgreSQL, side by side in one run with the same client's authenticated
 * `GET api/session` (the floor of any signed-in request):
 *   - p50/p95 on a PostgreSQL source (the same server, another database) and on an in-memory DuckDB source
 *     (targets ≤ 6.5 ms and ≤ 8 ms p50);
 *   - statements Sightline sends to its own database per run, web and worker together (pg_stat_statements,
 *     top-level statements only: each is one round trip unless pipelined; target ≤ 6), listed by statement;
 *   - where each run's time went, stage by stage (median ms), from the executions' own timestamps;
 *   - throughput of 20 clients each running SELECT 1 one after the other, for PostgreSQL and DuckDB.
 * `npx tsx bench/select-one.ts [--runs=300] [--seconds=5]`; prints the figures and writes bench/select-one.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { useEmbeddedPostgres, connect } from '../src/db/index.ts'
import { processCpuSeconds } from './cpu.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
const RUNS = arg('runs', 300)
const SECONDS = arg('seconds', 5)
const CLIENTS = 20

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-select1-'))
fs.chmodSync(root, 0o755)
// pg_stat_statements must be loaded at start: set it once, then start the server again
let pg = await useEmbeddedPostgres(root, 'sightline')
{
  const admin = connect(pg.url, { max: 1 })
  await admin`alter system set shared_preload_libraries = 'pg_stat_statements'`
  await admin.end()
  await pg.release()
  pg = await useEmbeddedPostgres(root, 'sightline')
}
const sql = connect(pg.url, { max: 2 })
await sql`create extension if not exists pg_stat_statements`
const port = await freePort()
const base = `http://${HOST}:${port}`
const children: ChildProcess[] = []
const pct = (xs: number[], p: number) => +[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))].toFixed(2)

function start(role: 'web' | 'worker') {
  // BENCH_SERVER_NODE_ARGS: Node options for both processes that NODE_OPTIONS may not carry (V8's heap flags, say)
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: process.env[`PROFILE_${role.toUpperCase()}`] ?? '', NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: role, PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root },
  })
  children.push(child)
  return child
}

/** CPU seconds used so far by the web and worker processes together. */
const serverCpuSeconds = () => children.reduce((sum, child) => sum + processCpuSeconds(child.pid!), 0)

let headers: Record<string, string> = {}
const api = (method: string, url: string, body?: unknown) =>
  fetch(base + url, { method, body: body === undefined ? undefined : JSON.stringify(body), headers })

/** Answers that came as a job to poll (the run took longer than the server waits): counted, and polled to the end. */
let polled = 0

/** Wall-clock time in ms with the monotonic clock's precision, comparable with the database's timestamps (one machine). */
const wallMs = () => performance.timeOrigin + performance.now()

/** While set, each SELECT 1 notes when it was sent and answered, to be set beside its execution's timestamps. */
let sends: { dataSourceId: number; sentAt: number; answeredAt: number }[] | null = null

/** One SELECT 1, submit to result in hand. */
async function selectOne(dataSourceId: number): Promise<number> {
  const began = performance.now()
  const sentAt = wallMs()
  const res = await api('POST', '/api/query_results', { data_source_id: dataSourceId, query: 'SELECT 1', max_age: 0 })
  const body = await res.json()
  if (!body.query_result && !body.job) throw new Error(`api/query_results answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`)
  if (!body.query_result) {
    polled++
    for (let job = body.job; job.status < 3; job = (await (await api('GET', `/api/jobs/${job.id}`)).json()).job) await sleep(20)
  }
  sends?.push({ dataSourceId, sentAt, answeredAt: wallMs() })
  return performance.now() - began
}

/**
 * Where a run's time went, median ms per stage, from the client's clock and the execution's own timestamps (the same
 * machine's clock): sent → queued (`created_at`, the start of the web's one queueing statement: HTTP, key, body and
 * source check), → claimed (`started_at`: queueing and hand-off to an idle worker slot, its wake-up), → stored
 * (`finished_at`, inside the statement that stores the result and ends the run: the claim, the engine's round trip,
 * encoding), → answered (that statement's end, its notification reaching the web, the answer written and read).
 */
async function stages(dataSourceId: number) {
  const mine = sends!.filter((s) => s.dataSourceId === dataSourceId)
  const rows = await sql<{ queued: number; claimed: number; stored: number }[]>`
    select extract(epoch from created_at) * 1000 as queued, extract(epoch from started_at) * 1000 as claimed,
           extract(epoch from finished_at) * 1000 as stored
      from executions where data_source_id = ${dataSourceId} and created_at >= to_timestamp(${(mine[0].sentAt - 1) / 1000})
     order by created_at`
  if (rows.length !== mine.length) return { note: `${rows.length} executions for ${mine.length} runs: stages not matched` }
  const stage = (f: (i: number) => number) => pct(mine.map((_, i) => f(i)), 0.5)
  return {
    sentToQueued: stage((i) => Number(rows[i].queued) - mine[i].sentAt),
    queuedToClaimed: stage((i) => Number(rows[i].claimed) - Number(rows[i].queued)),
    claimedToStored: stage((i) => Number(rows[i].stored) - Number(rows[i].claimed)),
    storedToAnswered: stage((i) => mine[i].answeredAt - Number(rows[i].stored)),
  }
}

async function session(): Promise<number> {
  const began = performance.now()
  const res = await api('GET', '/api/session')
  if (!res.ok) throw new Error(`api/session answered ${res.status}`)
  await res.arrayBuffer()
  return performance.now() - began
}

/** Statements on Sightline's database since the last reset, but the bench's own. */
async function statements() {
  return await sql<{ query: string; calls: number }[]>`
    select query, calls::int from pg_stat_statements s join pg_database d on d.oid = s.dbid
     where d.datname = 'sightline' and query not like '%pg_stat_statements%' order by calls desc`
}

try {
  const web = start('web')
  // a busy machine may take a while to start: wait for the web process as long as it lives
  while (!(await fetch(`${base}/ping`).then((r) => r.ok, () => false))) {
    if (web.exitCode !== null) throw new Error(`the web process exited with ${web.exitCode}`)
    await sleep(100)
  }
  start('worker')
  const setup = await fetch(`${base}/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...ADMIN, base_url: base }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  let cookies = setup.headers.getSetCookie().map((c) => c.split(';')[0])
  if (setup.status !== 302 && setup.status !== 303) throw new Error(`setup answered ${setup.status}: ${(await setup.text()).slice(0, 300)}`)
  if (!cookies.some((c) => c.startsWith('csrf_token='))) {
    const more = (await fetch(`${base}/api/session`, { headers: { cookie: cookies.join('; ') } })).headers.getSetCookie().map((c) => c.split(';')[0])
    cookies = [...cookies, ...more]
  }
  const csrf = cookies.find((c) => c.startsWith('csrf_token='))?.split('=')[1] ?? ''
  headers = { cookie: cookies.join('; '), 'x-csrf-token': csrf, 'content-type': 'application/json' }
  const u = new URL(pg.url)
  const pgSource = await (await api('POST', '/api/data_sources', {
    name: 'Engine', type: 'pg',
    options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres', query_concurrency: 8 },
  })).json()
  const duckSource = await (await api('POST', '/api/data_sources', { name: 'Duck', type: 'duckdb', options: { dbpath: ':memory:', query_concurrency: 8 } })).json()
  if (!pgSource.id || !duckSource.id) throw new Error(`sources not created: ${JSON.stringify([pgSource, duckSource])}`)
  while (!(await sql`select 1 from worker_heartbeats`).length) await sleep(100)
  console.error('started; warming up')

  // warm up, then the three requests in turn, so a busy spell of the machine weighs on each alike
  for (let i = 0; i < 50; i++) {
    await session()
    await selectOne(pgSource.id)
    await selectOne(duckSource.id)
  }
  console.error('warmed up; measuring')
  polled = 0
  const times = { session: [] as number[], postgres: [] as number[], duckdb: [] as number[] }
  sends = []
  for (let i = 0; i < RUNS; i++) {
    times.session.push(await session())
    times.postgres.push(await selectOne(pgSource.id))
    times.duckdb.push(await selectOne(duckSource.id))
  }
  const stagesMs = { postgres: await stages(pgSource.id), duckdb: await stages(duckSource.id) }
  sends = null

  // statements per run: what the runs sent, once the worker's work after each answer has settled too
  async function countRuns(label: string, run: () => Promise<unknown>, n = 50) {
    await sleep(1500)
    await sql`select pg_stat_statements_reset()`
    for (let i = 0; i < n; i++) {
      await run()
      await sleep(30) // the worker's after-work is counted with its run, not with the next one
    }
    await sleep(500)
    const rows = await statements()
    const total = rows.reduce((sum, r) => sum + r.calls, 0)
    return {
      label, perRun: +(total / n).toFixed(2),
      byStatement: rows.filter((r) => r.calls >= n / 2).map((r) => ({ perRun: +(r.calls / n).toFixed(2), query: r.query.replace(/\s+/g, ' ').slice(0, 140) })),
    }
  }
  console.error('counting statements')
  const sessionStatements = await countRuns('GET api/session', session)
  const pgStatements = await countRuns('SELECT 1 on PostgreSQL', () => selectOne(pgSource.id))

  // 20 clients, each asking again as soon as answered
  async function throughput(dataSourceId: number) {
    let done = 0
    const cpuBefore = serverCpuSeconds()
    const refusals: string[] = []
    const until = performance.now() + SECONDS * 1000
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        // a refusal (a full source, say) is counted apart and the client asks again
        await selectOne(dataSourceId).then(() => done++, (error) => refusals.push(String(error.message ?? error)))
      }
    }))
    if (refusals.length) console.error(`${refusals.length} runs refused, the first: ${refusals[0]}`)
    // the web and worker processes' CPU per run: what a run costs, whichever way the two cores were shared
    const cpuPerRunMs = +(((serverCpuSeconds() - cpuBefore) * 1000) / done).toFixed(3)
    return { perSecond: +(done / SECONDS).toFixed(1), refused: refusals.length, cpuPerRunMs }
  }
  console.error('measuring throughput')
  const pgPerSecond = await throughput(pgSource.id)
  const duckPerSecond = await throughput(duckSource.id)

  const [commit] = await new Promise<string[]>((resolve) => {
    const git = spawn('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })
    let out = ''
    git.stdout.on('data', (d) => (out += d))
    git.on('close', () => resolve([out.trim()]))
  })
  const figures = {
    date: new Date().toISOString(), commit: process.env.BENCH_COMMIT ?? commit, cpus: os.cpus().length, loadavg: os.loadavg().map((l) => +l.toFixed(2)), runs: RUNS, answeredAsJob: polled,
    sessionMs: { p50: pct(times.session, 0.5), p95: pct(times.session, 0.95) },
    postgresMs: { p50: pct(times.postgres, 0.5), p95: pct(times.postgres, 0.95) },
    duckdbMs: { p50: pct(times.duckdb, 0.5), p95: pct(times.duckdb, 0.95) },
    stagesMs,
    statementsPerRun: { session: sessionStatements.perRun, postgres: pgStatements.perRun },
    throughput20Clients: { postgres: pgPerSecond, duckdb: duckPerSecond },
    statements: { session: sessionStatements.byStatement, postgres: pgStatements.byStatement },
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'select-one.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  for (const child of children) child.kill('SIGTERM')
  await Promise.all(children.map((c) => new Promise((r) => c.exitCode !== null ? r(null) : c.once('exit', r))))
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
