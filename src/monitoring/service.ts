import type { Deps } from '../deps.ts'
import { Forbidden } from '../errors.ts'
import { isSuperAdmin } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { withListedApiKey, queryListItemJson } from '../queries/index.ts'
import { iso } from '../shared/time.ts'
import { usersByIds } from '../users/index.ts'
import { VERSION } from '../version.ts'
import * as store from './store.ts'
import { statusCountsCache } from './status-cache.ts'
import type { WorkerJobJson, QueueJson, RqStatusJson, SystemStatusJson, WorkerJson } from '../shared/monitoring.ts'

/** The monitoring pages show the whole installation's machinery: super admins only (reference §5.5, §5.6). */
function requireSuperAdmin(principal: Principal): Principal {
  if (!isSuperAdmin(principal)) throw new Forbidden()
  return principal
}

export type { WorkerJobJson, JobMeta, QueueJson, RqStatusJson, SystemStatusJson, WorkerJson } from '../shared/monitoring.ts'

/**
 * How many waiting executions, and how many other waiting jobs, rq_status lists (the longest-waiting first): the
 * counters stay exact, while a page of 10,000 queued jobs would cost more to send than it tells anyone.
 */
export const LISTED_WAITING_JOBS = 100

const executionJson = (e: store.RunningExecutionRow): WorkerJobJson => ({
  id: e.id,
  name: 'execute_query',
  origin: e.queue,
  enqueued_at: iso(e.created_at),
  started_at: iso(e.started_at),
  meta: { query_id: e.query_id, org_id: e.org_id, data_source_id: e.data_source_id, user_id: e.user_id, scheduled: e.scheduled },
  ...(e.worker_lost ? { worker_lost: true } : {}),
})

const waitingJobJson = (j: store.WaitingJobRow): WorkerJobJson => ({
  id: j.id,
  name: j.task_identifier,
  origin: j.queue,
  enqueued_at: iso(j.created_at),
  started_at: null,
  meta: j.org_id === null ? {}
    : { query_id: j.query_id, org_id: j.org_id, data_source_id: j.data_source_id!, user_id: j.user_id, scheduled: j.scheduled ?? false },
})

const lockedJobJson = (j: store.LockedJobRow): WorkerJobJson => ({
  id: String(j.id),
  name: j.task_identifier,
  origin: j.queue,
  enqueued_at: iso(j.created_at),
  started_at: iso(j.locked_at),
  meta: {},
})

function workerJson(w: store.WorkerRow): WorkerJson {
  const currentJob = w.execution_id !== null ? `${w.execution_id} (execute_query)`
    : w.job_id !== null ? `${w.job_id} (${w.job_task})` : null
  return {
    name: w.worker_id,
    hostname: w.hostname,
    pid: w.pid,
    queues: 'all',
    state: currentJob === null ? 'idle' : 'busy',
    last_heartbeat: iso(w.last_seen_at),
    birth_date: iso(w.started_at),
    current_job: currentJob,
    successful_jobs: w.succeeded,
    failed_jobs: w.failed,
    total_working_time: w.working_seconds,
  }
}

/** Every queue the workers serve (an empty one with nothing started and 0 queued) and any other with a job, in name order. */
async function queueStates(deps: Deps): Promise<Record<string, QueueJson>> {
  const [running, locked, waiting, served] = await Promise.all([
    store.runningExecutions(deps.sql), store.lockedOtherJobs(deps.sql), store.waitingPerQueue(deps.sql), store.servedQueues(deps.sql),
  ])
  const started = [...running.map(executionJson), ...locked.map(lockedJobJson)]
  const names = [...new Set([...served, ...started.map((j) => j.origin), ...waiting.map((w) => w.queue)])].sort()
  const queues: Record<string, QueueJson> = {}
  for (const name of names) {
    queues[name] = {
      name,
      started: started.filter((j) => j.origin === name),
      queued: waiting.find((w) => w.queue === name)?.waiting ?? 0,
    }
  }
  return queues
}

/** GET /api/admin/queries/rq_status: what runs and waits in each queue, and the workers. */
export async function rqStatus(deps: Deps, principal: Principal): Promise<RqStatusJson> {
  requireSuperAdmin(principal)
  const [queues, workers, waiting] = await Promise.all([
    queueStates(deps), store.workers(deps.sql), store.waitingJobs(deps.sql, LISTED_WAITING_JOBS),
  ])
  return { queues, workers: workers.map(workerJson), queued_jobs: waiting.map(waitingJobJson) }
}

/**
 * GET /api/admin/queries/outdated: scheduled queries due for a refresh or being refreshed now. `updated_at` is when
 * this answer was made: the list is read live, not from a status the scheduler last wrote.
 */
export async function outdatedQueries(deps: Deps, principal: Principal) {
  const p = requireSuperAdmin(principal)
  const updatedAt = new Date().toISOString()
  const rows = await store.outdatedQueries(deps.sql, p.orgId, p.id)
  const users = await usersByIds(deps.sql, p.orgId, rows.map((r) => r.user_id))
  return { queries: rows.map((r) => queryListItemJson(withListedApiKey(deps, p, r), users)), updated_at: updatedAt }
}

/** Each Sightline process's counters of the System Status page, kept a minute once the tables are large. */
const countsOf = new WeakMap<Deps['sql'], ReturnType<typeof statusCountsCache<store.StatusCountsRow>>>()
const STATUS_LARGE_ROWS = 50_000

function cachedStatusCounts(deps: Deps, orgId: number): Promise<store.StatusCountsRow> {
  let cache = countsOf.get(deps.sql)
  if (!cache) {
    cache = statusCountsCache((c) => c.queries_count + c.query_results_count + c.widgets_count, { largeRows: STATUS_LARGE_ROWS, keepMs: 60_000 })
    countsOf.set(deps.sql, cache)
  }
  return cache(orgId, () => store.statusCounts(deps.sql, orgId, {
    retentionDays: deps.config.resultRetentionDays, liveSeconds: deps.config.workerDeadAfterSeconds,
  }))
}

/** GET /status.json: the System Status page (reference §5.6), with Sightline's own tables behind each figure. */
export async function systemStatus(deps: Deps, principal: Principal): Promise<SystemStatusJson> {
  const p = requireSuperAdmin(principal)
  const [counts, queues, workers] = await Promise.all([
    cachedStatusCounts(deps, p.orgId),
    queueStates(deps),
    store.workers(deps.sql),
  ])
  return {
    version: VERSION,
    workers: workers.map(workerJson),
    queries_count: counts.queries_count,
    query_results_count: counts.query_results_count,
    unused_query_results_count: counts.unused_query_results_count,
    dashboards_count: counts.dashboards_count,
    widgets_count: counts.widgets_count,
    manager: {
      started_at: iso(counts.started_at),
      last_refresh_at: iso(counts.last_refresh_at),
      outdated_queries_count: counts.outdated_queries_count,
      queues: Object.fromEntries(Object.values(queues).map((q) => [q.name, { size: q.queued }])),
    },
    database_metrics: {
      metrics: [
        ['Query Results Size', counts.query_results_size],
        ['Sightline DB Size', counts.database_size],
      ],
    },
  }
}
