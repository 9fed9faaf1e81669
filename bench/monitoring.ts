/**
 * The admin monitoring pages of a busy installation, with one real Sightline web process on its own embedded
 * PostgreSQL and no worker, so 10,000 graphile-worker jobs stay queued while they are looked at:
 *   - 5,000 executions waiting on one source (each with its execute_query job) and 5,000 jobs of other tasks;
 *   - 20,000 finished executions of two workers with heartbeats, and 500 scheduled queries, 200 of them overdue.
 * Times GET /admin/status, /admin/queries/jobs, /admin/queries/outdated and their calls (/status.json,
 * api/admin/queries/rq_status, api/admin/queries/outdated), p50 and p95 of 50 each (target: p50 < 50 ms), and
 * weighs each page's JavaScript gzipped: everything the page loads (React and the app shell's islands included),
 * the page's own island (its script and the chunks it imports, React's boot script aside) and what of that island
 * the shell does not load already.
 * `NODE_ENV=production npx tsx bench/monitoring.ts` after `npm run build`; prints the figures and writes
 * bench/monitoring.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { pageScripts } from './scripts.ts'
import { ROOT } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline } from './sightline.ts'

const WAITING_EXECUTIONS = 5_000
const OTHER_JOBS = 5_000
const FINISHED_EXECUTIONS = 20_000
const REQUESTS = 50
const PAGES: [page: string, call: string, island: string][] = [
  ['/admin/status', '/status.json', 'SystemStatus'],
  ['/admin/queries/jobs', '/api/admin/queries/rq_status', 'RqStatus'],
  ['/admin/queries/outdated', '/api/admin/queries/outdated', 'OutdatedQueries'],
]
const figures: Record<string, unknown> = machine()
// a web process alone: no worker, so what is queued stays queued while it is looked at
const sightline = await startBenchSightline('monitoring', { SIGHTLINE_PROCESS: 'web' })
const { sql, admin, base } = sightline
const post = (url: string, body: unknown) => admin.api<{ id: number }>('POST', url, body)

/** p50 / p95 / max of REQUESTS sequential GETs after 5 to warm up; `check` looks at the last answer. */
async function timeRequests(url: string, check: (body: string) => void) {
  const times: number[] = []
  let body = ''
  for (let i = 0; i < REQUESTS + 5; i++) {
    const began = performance.now()
    const res = await fetch(base + url, { headers: { cookie: admin.cookie } })
    body = await res.text()
    if (!res.ok) throw new Error(`${url}: ${res.status}`)
    if (i >= 5) times.push(performance.now() - began)
  }
  check(body)
  return { p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)), maxMs: round(Math.max(...times)), bytes: body.length }
}

/** The app shell's islands, which every signed-in page loads (src/ui/AppShell.tsx). */
const SHELL_ISLANDS = ['HelpDrawer', 'Toaster', 'SessionExpiredModal', 'MenuDismiss']

/**
 * The page's own island, gzipped file by file from dist/: `own` is its script and every chunk it imports statically
 * (React's boot script aside); `added` is what of that the app shell's islands do not already load.
 */
function islandGzipKb(name: string): { own: number; added: number } {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist/manifest.json'), 'utf8')) as {
    islands: Record<string, { file: string; imports: string[] }>
  }
  const files = (n: string) => {
    const island = manifest.islands[n]
    if (!island) throw new Error(`no island ${n} in dist/manifest.json: run npm run build first`)
    return [island.file, ...island.imports]
  }
  const shell = new Set(SHELL_ISLANDS.flatMap(files))
  const kb = (urls: string[]) => round(urls.reduce((sum, url) => sum + gzipSync(fs.readFileSync(path.join(ROOT, 'dist', url))).length, 0) / 1024)
  return { own: kb(files(name)), added: kb(files(name).filter((url) => !shell.has(url))) }
}

async function seed(dsId: number) {
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations limit 1`
  const [{ id: userId }] = await sql<{ id: number }[]>`select id from users limit 1`
  // two workers up for 7 hours, which finished every execution of that time: all of it counts on their rows
  await sql`
    insert into worker_heartbeats (worker_id, hostname, pid, concurrency, started_at)
    values ('pool-a', 'worker-a', 101, 8, now() - interval '7 hours'), ('pool-b', 'worker-b', 102, 8, now() - interval '7 hours')`
  await sql`
    insert into executions (org_id, data_source_id, user_id, query_hash, query_text, queue, status, worker_id, created_at, started_at, finished_at)
    select ${orgId}, ${dsId}, ${userId}, 'done' || g, 'select ' || g, ${`ds:${dsId}`}, 3 + (g % 10 = 0)::int,
           case when g % 2 = 0 then 'pool-a' else 'pool-b' end, now() - g * interval '1 second', now() - g * interval '1 second', now() - g * interval '1 second' + interval '40 ms'
      from generate_series(1, ${FINISHED_EXECUTIONS}) g`
  const waiting = await sql<{ id: string }[]>`
    insert into executions (org_id, data_source_id, user_id, query_hash, query_text, queue, dispatched, created_at)
    select ${orgId}, ${dsId}, ${userId}, 'waiting' || g, 'select ' || g, ${`ds:${dsId}`}, true, now() - g * interval '10 ms'
      from generate_series(1, ${WAITING_EXECUTIONS}) g
    returning id`
  await sql`select graphile_worker.add_job('execute_query', json_build_object('execution_id', id), queue_name => ${`ds:${dsId}`})
              from unnest(${sql.array(waiting.map((w) => w.id))}::uuid[]) id`
  await sql`select graphile_worker.add_job(case when g % 2 = 0 then 'refresh_query' else 'refresh_schema' end, json_build_object('query_id', g))
              from generate_series(1, ${OTHER_JOBS}) g`
  // 500 scheduled queries, the first 200 overdue
  for (let i = 0; i < 500; i++) {
    const q = await post('/api/queries', { data_source_id: dsId, name: `Report ${i}`, query: `select ${i}`, tags: [`team${i % 7}`], schedule: { interval: 3600 } })
    if (i < 200) await sql`update queries set schedule_next_at = now() - interval '5 minutes' where id = ${q.id}`
  }
  await sql`analyze`
  const [{ jobs }] = await sql<{ jobs: number }[]>`select count(*)::int as jobs from graphile_worker.jobs where locked_at is null`
  return jobs
}

try {
  const ds = await post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: { ...pgSourceOptions(sightline.databaseUrl), dbname: new URL(sightline.databaseUrl).pathname.slice(1) } })
  figures.queued_graphile_jobs = await seed(ds.id)

  const timings: Record<string, unknown> = {}
  for (const [page, call] of PAGES) {
    timings[page] = await timeRequests(page, (html) => {
      if (!html.includes('sightline-island')) throw new Error(`${page} drew no island`)
    })
    timings[call] = await timeRequests(call, (json) => JSON.parse(json))
  }
  figures.server_ms = timings
  const scripts: Record<string, unknown> = {}
  for (const [page, , island] of PAGES) {
    const loaded = await pageScripts(Number(new URL(base).port), page, admin.cookie)
    const own = islandGzipKb(island)
    scripts[page] = { pageTotalGzipKb: round(loaded.totalGzipBytes / 1024), scripts: loaded.scripts.length, islandOwnGzipKb: own.own, islandAddedGzipKb: own.added }
  }
  figures.javascript = scripts

  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'monitoring.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
