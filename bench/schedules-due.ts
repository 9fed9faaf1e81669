/**
 * Many schedules due on the same minute: 5,000 queries refreshed hourly whose next refresh falls on one instant (a
 * team that schedules everything "on the hour"), with one real Sightline process (web and worker) whose engine is
 * its own embedded PostgreSQL. How late does each refresh start after its due time (target: p99 within 10 s), and
 * how long until every one has been queued and finished.
 *
 * `NODE_ENV=production npx tsx bench/schedules-due.ts`; BENCH_DUE sets how many; prints the figures and writes
 * bench/schedules-due.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { processCpuSeconds } from './cpu.ts'
import { machine, pgSourceOptions, startBenchSightline } from './sightline.ts'
import { sleep } from './server.ts'

const DUE = Number(process.env.BENCH_DUE ?? 5000)
const LEAD_MS = 15_000
const DEADLINE_MS = 180_000

const sightline = await startBenchSightline('schedules-due')
const { sql, admin } = sightline
const figures: Record<string, unknown> = { ...machine(), due: DUE }
try {
  const ds = await admin.api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations limit 1`
  const [{ id: userId }] = await sql<{ id: number }[]>`select id from users order by id limit 1`
  const dueAt = new Date(Date.now() + LEAD_MS)
  await sql`
    insert into queries (org_id, data_source_id, user_id, name, query, query_hash, api_key_hash, schedule, schedule_next_at)
    select ${orgId}, ${ds.id}, ${userId}, 'On the hour ' || g, 'SELECT ' || g || ' AS scheduled', md5('SELECT' || g || 'ASscheduled'),
           sha256(('bench key ' || g)::bytea), '{"interval": 3600, "time": null, "day_of_week": null, "until": null}', ${dueAt}
      from generate_series(1, ${DUE}) g`
  // as Sightline plans them (src/schedules/service.ts): one keyed refresh job per query, due at its next run
  await sql`
    select graphile_worker.add_jobs(array_agg(('refresh_query', json_build_object('query_id', id), null, schedule_next_at, 3, 'refresh:' || id, 0, null)::graphile_worker.job_spec))
      from queries where schedule_next_at is not null`
  if (Date.now() > dueAt.getTime() - 2000) throw new Error('planning the refreshes took longer than their lead time')

  const cpuBefore = processCpuSeconds(sightline.pid)
  let state = { started: 0, finished: 0 }
  while (Date.now() < dueAt.getTime() + DEADLINE_MS) {
    await sleep(500)
    ;[state] = await sql<{ started: number; finished: number }[]>`
      select count(*) filter (where started_at is not null)::int as started, count(*) filter (where status in (3, 4))::int as finished
        from executions where scheduled`
    if (state.finished >= DUE) break
  }
  const [lag] = await sql<Record<string, number>[]>`
    select percentile_cont(0.5) within group (order by extract(epoch from e.created_at - ${dueAt}::timestamptz)) as queued_p50,
           max(extract(epoch from e.created_at - ${dueAt}::timestamptz))::float8 as queued_max,
           percentile_cont(0.5) within group (order by extract(epoch from e.started_at - ${dueAt}::timestamptz)) as p50,
           percentile_cont(0.95) within group (order by extract(epoch from e.started_at - ${dueAt}::timestamptz)) as p95,
           percentile_cont(0.99) within group (order by extract(epoch from e.started_at - ${dueAt}::timestamptz)) as p99,
           max(extract(epoch from e.started_at - ${dueAt}::timestamptz))::float8 as max,
           max(extract(epoch from e.finished_at - ${dueAt}::timestamptz))::float8 as all_finished,
           count(*) filter (where e.status = 4)::int as failed
      from executions e where e.scheduled`
  // Sightline's own CPU (web and worker, one process) from planning to the last refresh, steadier than the lags
  figures.sightlineCpuS = +(processCpuSeconds(sightline.pid) - cpuBefore).toFixed(2)
  const s = (x: number | null) => (x === null ? null : +Number(x).toFixed(2))
  Object.assign(figures, {
    started: state.started, finished: state.finished, failed: lag.failed,
    queuedP50LagS: s(lag.queued_p50), queuedMaxLagS: s(lag.queued_max),
    startP50LagS: s(lag.p50), startP95LagS: s(lag.p95), startP99LagS: s(lag.p99), startMaxLagS: s(lag.max),
    allFinishedS: s(lag.all_finished), refreshesPerSecond: lag.all_finished ? Math.round(state.finished / lag.all_finished) : null,
  })
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'schedules-due.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
