import type { Deps } from '../deps.ts'
import { Forbidden } from '../errors.ts'
import { isSuperAdmin } from '../permissions/can.ts'
import type { Principal } from '../permissions/principal.ts'
import { withShownApiKey } from '../queries/details.ts'
import { queryListItemJson } from '../queries/serialize.ts'
import { iso } from '../shared/time.ts'
import { usersByIds } from '../users/store.ts'
import { VERSION } from '../version.ts'
import * as store from './store.ts'

/** The monitoring pages show the whole installation's machinery: super admins only (reference §5.5, §5.6). */
function requireSuperAdmin(principal: Principal): Principal {
  if (!isSuperAdmin(principal)) throw new Forbidden()
  return principal
}

/** What the browser's Queries tab reads from an execution; other jobs carry none. */
export interface JobMeta {
  query_id: number | null
  org_id: number
  data_source_id: number
  user_id: number | null
  scheduled: boolean
}

/** A started job as the RQ Status page lists it (reference §5.6). */
export interface JobJson {
  id: string
  name: string
  origin: string
  enqueued_at: string | null
  started_at: string | null
  meta: JobMeta | Record<string, never>
}

export interface QueueJson {
  name: string
  started: JobJson[]
  queued: number
}

export interface WorkerJson {
  name: string
  hostname: string
  pid: number
  /** A graphile-worker pool takes jobs from every queue. */
  queues: 'all'
  state: 'busy' | 'idle'
  last_heartbeat: string | null
  birth_date: string | null
  current_job: string | null
  successful_jobs: number
  failed_jobs: number
  /** Seconds. */
  total_working_time: number
}

const executionJson = (e: store.RunningExecutionRow): JobJson => ({
  id: e.id,
  name: 'execute_query',
  origin: e.queue,
  enqueued_at: iso(e.created_at),
  started_at: iso(e.started_at),
  meta: { query_id: e.query_id, org_id: e.org_id, data_source_id: e.data_source_id, user_id: e.user_id, scheduled: e.scheduled },
})

const lockedJobJson = (j: store.LockedJobRow): JobJson => ({
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

/** Every queue with a job running or waiting, by name, in name order. */
async function queueStates(deps: Deps): Promise<Record<string, QueueJson>> {
  const [running, locked, waiting] = await Promise.all([
    store.runningExecutions(deps.sql), store.lockedOtherJobs(deps.sql), store.waitingPerQueue(deps.sql),
  ])
  const started = [...running.map(executionJson), ...locked.map(lockedJobJson)]
  const names = [...new Set([...started.map((j) => j.origin), ...waiting.map((w) => w.queue)])].sort()
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
export async function rqStatus(deps: Deps, principal: Principal) {
  requireSuperAdmin(principal)
  const [queues, workers] = await Promise.all([queueStates(deps), store.workers(deps.sql)])
  return { queues, workers: workers.map(workerJson) }
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
  return { queries: rows.map((r) => queryListItemJson(withShownApiKey(deps, r), users)), updated_at: updatedAt }
}

/** GET /status.json: the System Status page (reference §5.6), with Sightline's own tables behind each figure. */
export async function systemStatus(deps: Deps, principal: Principal) {
  const p = requireSuperAdmin(principal)
  const [counts, queues, workers] = await Promise.all([
    store.statusCounts(deps.sql, p.orgId, {
      retentionDays: deps.config.resultRetentionDays, liveSeconds: deps.config.workerDeadAfterSeconds,
    }),
    queueStates(deps),
    store.workers(deps.sql),
  ])
  return {
    version: VERSION,
    workers: workers.map(workerJson),
    queries_count: counts.queries_count,
    query_results_count: counts.query_results_count,
    unused_query_results_count: counts.unused_query_results_count,
    // dashboards and widgets have no tables yet, so there are honestly none (as in orgs/status.ts)
    dashboards_count: 0,
    widgets_count: 0,
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
      ] as [string, number][],
    },
  }
}
