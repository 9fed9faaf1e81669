/**
 * Execution figures, with one web and one worker process on their own embedded PostgreSQL (which is also the
 * engine the queries run on, so engine and Sightline share this machine's 2 cores):
 *   - SELECT 1 through the API, submit to result in hand (p50 < 20 ms), beside the engine's own floor;
 *   - 1,000 distinct trivial executions submitted at once: all done (< 5 s);
 *   - 1,000,000 rows × 4 columns executed, stored and downloaded as CSV (< 3× psql's `\copy … to stdout csv`; COPY
 *     through postgres.js where psql is missing), with the processes' peak memory (< 400 MB). The download is timed
 *     as a script gets it (no compression asked, as psql's output) and as a browser over plain HTTP gets it (gzip);
 *   - the job is polled as the browser polls it (spec 1 §4), so the run's figure includes what polling adds;
 *   - 10,000 scheduled queries (hourly, spread over the hour): how late each refresh due in one minute starts (< 5 s).
 * `npx tsx bench/executions.ts [--only=select1,thousand,million,schedules]`; prints a table and writes bench/executions.json.
 * `PROFILE_WEB` / `PROFILE_WORKER` set that process's NODE_OPTIONS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { useEmbeddedPostgres, connect } from '../src/db/index.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-exec-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 4 })
/** `--only=select1,thousand,million,schedules` runs just those parts. */
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',')
const want = (part: string) => !only || only.includes(part)
const port = await freePort()
const base = `http://${HOST}:${port}`
const children: ChildProcess[] = []
const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length }

function start(role: 'web' | 'worker', extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: process.env[`PROFILE_${role.toUpperCase()}`] ?? '', NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: role, PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root, ...extra },
  })
  children.push(child)
  return child
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

let cookie = ''
let csrf = ''
async function api(method: string, url: string, body?: unknown) {
  const res = await fetch(base + url, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
  })
  return res
}

/**
 * Polls a job as the browser does (spec 1 §4, islands/lib/editor/use-execution.ts): every 500 ms, every 3 s after 10
 * polls, counted from one question to the next (the server holds a question up to 500 ms for the job to end).
 */
async function settle(job: { id: string }, askedAt: number): Promise<{ status: number; query_result_id: number; error: string }> {
  let asked = askedAt
  for (let polls = 0; ; polls++) {
    await sleep(Math.max(0, (polls < 10 ? 500 : 3000) - (performance.now() - asked)))
    asked = performance.now()
    const { job: now } = await (await api('GET', `/api/jobs/${job.id}`)).json()
    if (now.status >= 3) return now
  }
}

try {
  const web = start('web')
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/ping`).then((r) => r.ok, () => false)) break
    await sleep(100)
  }
  const worker = start('worker')
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
    options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres', query_concurrency: 4 },
  })).json()
  // the worker is up once its heartbeat is written
  while (!(await sql`select 1 from worker_heartbeats`).length) await sleep(100)

  // 1. SELECT 1, submit to result in hand, sequentially; and the engine's own floor (connect + SELECT 1, as a run does)
  if (want('select1')) {
  const latencies: number[] = []
  for (let i = 0; i < 220; i++) {
    const began = performance.now()
    const body = await (await api('POST', '/api/query_results', { data_source_id: ds.id, query: 'SELECT 1', max_age: 0 })).json()
    if (!body.query_result) await settle(body.job, began)
    if (i >= 20) latencies.push(performance.now() - began)
  }
  const floor: number[] = []
  for (let i = 0; i < 100; i++) {
    const began = performance.now()
    const direct = connect(pg.url, { max: 1 })
    await direct`select 1`
    floor.push(performance.now() - began)
    await direct.end()
  }
  // where the time goes: submit to start (queue), start to finish (run and store), as the executions table saw it
  const [phases] = await sql<{ wait_p50: number; run_p50: number }[]>`
    select percentile_cont(0.5) within group (order by extract(epoch from started_at - created_at)) * 1000 as wait_p50,
           percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) * 1000 as run_p50
      from executions where query_text = 'SELECT 1'`
  figures.select1 = {
    p50Ms: +pct(latencies, 0.5).toFixed(1), p95Ms: +pct(latencies, 0.95).toFixed(1), engineFloorP50Ms: +pct(floor, 0.5).toFixed(1),
    queueP50Ms: +phases.wait_p50.toFixed(1), runP50Ms: +phases.run_p50.toFixed(1),
  }
  console.log('SELECT 1', figures.select1)
  }

  // 2. 1,000 distinct executions at once
  if (want('thousand')) {
  const began = performance.now()
  await Promise.all(Array.from({ length: 1000 }, async (_, i) => {
    const asked = performance.now()
    const body = await (await api('POST', '/api/query_results', { data_source_id: ds.id, query: `SELECT ${i} AS n`, max_age: 0 })).json()
    if (!body.query_result) {
      const job = await settle(body.job, asked)
      if (job.status !== 3) throw new Error(job.error)
    }
  }))
  const [phases] = await sql<{ wait_p50: number; wait_max: number; run_p50: number; run_max: number; span: number; submit_span: number }[]>`
    select percentile_cont(0.5) within group (order by extract(epoch from started_at - created_at)) * 1000 as wait_p50,
           max(extract(epoch from started_at - created_at)) * 1000 as wait_max,
           percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) * 1000 as run_p50,
           max(extract(epoch from finished_at - started_at)) * 1000 as run_max,
           extract(epoch from max(finished_at) - min(created_at)) * 1000 as span,
           extract(epoch from max(created_at) - min(created_at)) * 1000 as submit_span
      from executions where query_text ~ '^SELECT [0-9]+ AS n$'`
  figures.thousandAtOnce = {
    allDoneMs: Math.round(performance.now() - began), firstQueuedToLastDoneMs: Math.round(phases.span), firstToLastQueuedMs: Math.round(phases.submit_span),
    queueWaitP50Ms: Math.round(phases.wait_p50), queueWaitMaxMs: Math.round(phases.wait_max),
    runP50Ms: +phases.run_p50.toFixed(1), runMaxMs: Math.round(phases.run_max),
  }
  console.log('1,000 at once', figures.thousandAtOnce)
  }

  // 3. a million rows: execute and store, then download as CSV; the floor is COPY of the same query to stdout
  if (want('million')) {
  const million = "SELECT g AS id, g * 2 AS twice, md5(g::text) AS hash, timestamp '2024-01-01' + g * interval '1 second' AS at FROM generate_series(1, 1000000) g"
  const t0 = performance.now()
  const run = await (await api('POST', '/api/query_results', { data_source_id: ds.id, query: million, max_age: 0 })).json()
  const resultId = run.query_result?.id ?? (await settle(run.job, t0)).query_result_id
  const executedMs = performance.now() - t0
  // the server's own span, without the client's polling granularity (polls every 500 ms, then every 3 s)
  const [{ server_ms: serverMs, queue_ms: queueMs }] = await sql<{ server_ms: number; queue_ms: number }[]>`
    select extract(epoch from finished_at - created_at) * 1000 as server_ms, extract(epoch from started_at - created_at) * 1000 as queue_ms
      from executions where query_result_id = ${resultId}`
  // downloaded as a script or psql's user gets it (no compression asked), then as a browser over plain HTTP (gzip)
  async function download(encoding: string) {
    const began = performance.now()
    const csv = await fetch(base + `/api/query_results/${resultId}.csv`, { headers: { cookie, 'accept-encoding': encoding } })
    let bytes = 0
    let firstByteMs = 0
    for await (const chunk of csv.body!) {
      if (!bytes) firstByteMs = performance.now() - began
      bytes += chunk.length
    }
    return { ms: performance.now() - began, firstByteMs, bytes, encoding: csv.headers.get('content-encoding') ?? 'identity' }
  }
  const plain = await download('identity')
  const gzipped = await download('gzip, deflate')
  if (gzipped.encoding !== 'gzip') throw new Error(`the browser's download came as ${gzipped.encoding}, not gzip`)
  const t2 = performance.now()
  let copyBytes = 0
  const copy = await sql.unsafe(`COPY (${million}) TO STDOUT CSV`).readable()
  for await (const chunk of copy) copyBytes += chunk.length
  const copyMs = performance.now() - t2
  // the issue's own floor: psql's \copy of the same query to stdout, where a psql client is installed
  const t3 = performance.now()
  const psql = spawnSync('psql', [pg.url, '-qc', `\\copy (${million}) to stdout csv`], { stdio: ['ignore', 'ignore', 'ignore'] })
  const psqlMs = psql.status === 0 ? performance.now() - t3 : null
  const floorMs = psqlMs ?? copyMs
  figures.millionRows = {
    executedAndStoredMs: Math.round(executedMs), executedAndStoredServerMs: Math.round(serverMs), queuedMs: Math.round(queueMs),
    csvDownloadMs: Math.round(plain.ms), csvFirstByteMs: Math.round(plain.firstByteMs), csvGzipDownloadMs: Math.round(gzipped.ms),
    totalMs: Math.round(executedMs + plain.ms), totalGzipMs: Math.round(executedMs + gzipped.ms),
    copyToStdoutMs: Math.round(copyMs), psqlCopyMs: psqlMs && Math.round(psqlMs),
    ratio: +((executedMs + plain.ms) / floorMs).toFixed(2), ratioGzip: +((executedMs + gzipped.ms) / floorMs).toFixed(2),
    csvMB: +(plain.bytes / 1e6).toFixed(1), copyMB: +(copyBytes / 1e6).toFixed(1),
    peakWebMB: Math.round(peakMb(web.pid!)), peakWorkerMB: Math.round(peakMb(worker.pid!)),
  }
  console.log('1,000,000 rows', figures.millionRows)
  }

  // 4. 10,000 scheduled queries, hourly, their next runs spread over the hour: how late does each due refresh start
  // in the first minute, while the other ~9,800 wait as planned jobs
  if (want('schedules')) {
    const [{ id: userId }] = await sql`select id from users limit 1`
    const [{ id: orgId }] = await sql`select id from organizations limit 1`
    const dueFrom = Date.now() + 15_000
    const windowS = 60
    await sql`delete from executions`
    await sql`
      insert into queries (org_id, data_source_id, user_id, name, query, query_hash, api_key_hash, schedule, schedule_next_at)
      select ${orgId}, ${ds.id}, ${userId}, 'Scheduled ' || g, 'SELECT ' || g || ' AS scheduled', md5('SELECT' || g || 'ASscheduled'),
             sha256(convert_to(md5(random()::text || g), 'UTF8')), '{"interval": 3600, "time": null, "day_of_week": null, "until": null}',
             to_timestamp((${dueFrom}::float8 + (g - 1) * 360) / 1000.0)
        from generate_series(1, 10000) g`
    // one bulk call: 10,000 single add_job calls take longer than the lead time, and their jobs only appear at commit
    await sql`
      select graphile_worker.add_jobs(array_agg(('refresh_query', json_build_object('query_id', id), null, schedule_next_at, 3, 'refresh:' || id, 0, null)::graphile_worker.job_spec))
        from queries where schedule_next_at is not null`
    if (Date.now() > dueFrom - 2000) throw new Error('planning 10,000 refreshes took longer than their lead time')
    await sleep(dueFrom + windowS * 1000 - Date.now() + 10_000)
    const [lag] = await sql<{ due: number; started: number; p50: number; p95: number; max: number; late: number; queued_p50: number; queued_max: number }[]>`
      with due as (
        select q.id, to_timestamp((${dueFrom}::float8 + (q.id - (select min(id) from queries where name like 'Scheduled %')) * 360) / 1000.0) as due_at
          from queries q where q.name like 'Scheduled %'
      ), in_window as (select * from due where due_at < to_timestamp((${dueFrom}::float8 + ${windowS * 1000}) / 1000.0))
      select (select count(*)::int from in_window) as due, count(e.id)::int as started,
             percentile_cont(0.5) within group (order by extract(epoch from e.started_at - w.due_at)) as p50,
             percentile_cont(0.95) within group (order by extract(epoch from e.started_at - w.due_at)) as p95,
             max(extract(epoch from e.started_at - w.due_at))::float8 as max,
             count(*) filter (where extract(epoch from e.started_at - w.due_at) > 5)::int as late,
             percentile_cont(0.5) within group (order by extract(epoch from e.created_at - w.due_at)) as queued_p50,
             max(extract(epoch from e.created_at - w.due_at))::float8 as queued_max
        from in_window w join executions e on e.query_id = w.id and e.scheduled`
    const [state] = await sql`select (select count(*)::int from executions) as executions,
      (select count(*)::int from graphile_worker.jobs where task_identifier = 'refresh_query' and run_at < now()) as overdue_jobs,
      (select count(*)::int from graphile_worker.jobs where last_error is not null) as failing_jobs,
      (select max(last_error) from graphile_worker.jobs) as last_error`
    if (!lag.started) console.log('no scheduled refresh started', state)
    figures.schedules = {
      scheduledQueries: 10_000, dueInWindow: lag.due, started: lag.started, windowS,
      queuedP50LagS: +(lag.queued_p50 ?? 0).toFixed(2), queuedMaxLagS: +(lag.queued_max ?? 0).toFixed(2),
      p50LagS: +(lag.p50 ?? 0).toFixed(2), p95LagS: +(lag.p95 ?? 0).toFixed(2), maxLagS: +(lag.max ?? 0).toFixed(2), laterThan5s: lag.late,
    }
    console.log('10,000 schedules', figures.schedules)
  }
  // parts not run this time keep their last figures
  const file = path.join(import.meta.dirname, 'executions.json')
  const earlier = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
  fs.writeFileSync(file, JSON.stringify({ ...earlier, ...figures }, null, 2) + '\n')
} finally {
  for (const child of children) child.kill('SIGTERM')
  await Promise.all(children.map((c) => new Promise((r) => c.exitCode !== null ? r(null) : c.once('exit', r))))
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
