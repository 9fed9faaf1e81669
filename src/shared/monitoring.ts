/**
 * The admin monitoring calls' wire shapes (spec 3 §3, §7; reference §5.5, §5.6) and the pages' constants, shared by
 * the server, which answers them, and the islands, which read them again every minute.
 */

/** Spec 3 §9: jobs, outdated queries and system status refresh every 60 s. */
export const REFRESH_MS = 60_000

/** Spec 3 §9: admin tables page at 25 rows, with 10, 25 and 50 to choose from. */
export const ADMIN_PAGE_SIZES = [10, 25, 50] as const
export const ADMIN_PAGE_SIZE = 25

/** What the Queries tab reads from an execution; other jobs carry none. */
export interface JobMeta {
  query_id: number | null
  org_id: number
  data_source_id: number
  user_id: number | null
  scheduled: boolean
}

/** A worker's job as the RQ Status page lists it (reference §5.6); `started_at` is null while it waits. */
export interface WorkerJobJson {
  id: string
  name: string
  origin: string
  enqueued_at: string | null
  started_at: string | null
  meta: JobMeta | Record<string, never>
  /**
   * Sightline's addition, on a running query only: its worker stopped, and its run is being recovered (its statement
   * stopped in the engine, then run again or failed). It no longer holds a slot of its source.
   */
  worker_lost?: true
}

export interface QueueJson {
  name: string
  started: WorkerJobJson[]
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

/** GET /api/admin/queries/rq_status. `queued_jobs` (Sightline's addition) lists the longest-waiting jobs. */
export interface RqStatusJson {
  queues: Record<string, QueueJson>
  workers: WorkerJson[]
  queued_jobs: WorkerJobJson[]
}

/** GET /status.json. */
export interface SystemStatusJson {
  version: string
  workers: WorkerJson[]
  queries_count: number
  query_results_count: number
  unused_query_results_count: number
  dashboards_count: number
  widgets_count: number
  manager: {
    started_at: string | null
    last_refresh_at: string | null
    outdated_queries_count: number
    queues: Record<string, { size: number }>
  }
  database_metrics: { metrics: [string, number][] }
}

/** What the Outdated Queries table shows of a query (the API's item carries more). */
export interface OutdatedQuery {
  id: number
  name: string
  tags: string[]
  is_draft: boolean
  is_archived: boolean
  user: { name: string; profile_image_url: string } | null
  created_at: string
  runtime: number | null
  retrieved_at: string | null
  schedule: { interval: number | string | null; time?: string | null; day_of_week?: string | null; until?: string | null } | null
}

/** GET /api/admin/queries/outdated, as far as the page reads it. */
export interface OutdatedJson {
  queries: OutdatedQuery[]
  updated_at: string
}

/** The row an Outdated Queries table keeps: no query text, no key, whatever else the API's item carries. */
export const outdatedRow = (q: OutdatedQuery): OutdatedQuery => ({
  id: q.id, name: q.name, tags: q.tags, is_draft: q.is_draft, is_archived: q.is_archived,
  user: q.user && { name: q.user.name, profile_image_url: q.user.profile_image_url },
  created_at: q.created_at, runtime: q.runtime, retrieved_at: q.retrieved_at,
  schedule: q.schedule && { interval: q.schedule.interval, time: q.schedule.time, day_of_week: q.schedule.day_of_week, until: q.schedule.until },
})
