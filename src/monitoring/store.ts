import type { Db } from '../db/index.ts'
import { queryColumns, queryTables, type QueryRow } from '../queries/index.ts'

/**
 * What the admin monitoring pages read: Sightline's executions and worker heartbeats, and graphile-worker's public
 * `graphile_worker.jobs` view. Workers and queues belong to the installation, not to an organization, so those reads
 * are unfiltered; queries and results are the organization's.
 */

/** graphile-worker runs jobs added without a queue in parallel; the pages still need a name for them. */
export const UNNAMED_QUEUE = 'default'

/** An execution a worker is running now (status 2). */
export interface RunningExecutionRow {
  id: string
  queue: string
  org_id: number
  data_source_id: number
  query_id: number | null
  user_id: number | null
  scheduled: boolean
  created_at: Date
  started_at: Date | null
  /** Its worker stopped and a recovery has it: its slot is released (src/workers/store.ts, claimLost). */
  worker_lost: boolean
}

export async function runningExecutions(db: Db): Promise<RunningExecutionRow[]> {
  return db<RunningExecutionRow[]>`
    select id, queue, org_id, data_source_id, query_id, user_id, scheduled, created_at, started_at,
           not dispatched as worker_lost
      from executions
     where status = 2
     order by started_at, id`
}

/** A graphile job other than an execution, locked by a worker. */
export interface LockedJobRow {
  id: number
  queue: string
  task_identifier: string
  created_at: Date
  locked_at: Date
}

/**
 * Locked jobs except execute_query: a running execution is listed from `executions`, which knows its query and
 * user (the view has no payload), and its job id is the one api/jobs answers to.
 */
export async function lockedOtherJobs(db: Db): Promise<LockedJobRow[]> {
  return db<LockedJobRow[]>`
    select id, coalesce(queue_name, ${UNNAMED_QUEUE}) as queue, task_identifier, created_at, locked_at
      from graphile_worker.jobs
     where locked_at is not null and task_identifier <> 'execute_query'
     order by locked_at, id`
}

/**
 * Work waiting per queue: executions waiting for their source's slot or a worker (queue `ds:<source>`), and other
 * jobs due and unlocked. A refresh planned for later, or a failed job waiting out its retry back-off, is not waiting
 * for a worker yet; a job out of attempts never will be.
 */
export async function waitingPerQueue(db: Db): Promise<{ queue: string; waiting: number }[]> {
  return db<{ queue: string; waiting: number }[]>`
    select queue, count(*)::int as waiting from executions where status = 1 group by queue
    union all
    select coalesce(queue_name, ${UNNAMED_QUEUE}), count(*)::int
      from graphile_worker.jobs
     where locked_at is null and run_at <= now() and attempts < max_attempts and task_identifier <> 'execute_query'
     group by 1
     order by 1`
}

/** A job waiting for a worker: an execution waiting its turn, or another task's job due and unlocked. */
export interface WaitingJobRow {
  id: string
  queue: string
  task_identifier: string
  created_at: Date
  /** Executions only: what the Queries tab shows. */
  org_id: number | null
  data_source_id: number | null
  query_id: number | null
  user_id: number | null
  scheduled: boolean | null
}

/**
 * The `limit` longest-waiting executions and the `limit` longest-waiting other jobs (the same "waiting" as
 * waitingPerQueue): a queue of thousands is sorted keeping only the first rows, and never sent whole.
 */
export async function waitingJobs(db: Db, limit: number): Promise<WaitingJobRow[]> {
  const [executions, others] = await Promise.all([
    db<WaitingJobRow[]>`
      select id::text, queue, 'execute_query' as task_identifier, created_at, org_id, data_source_id, query_id, user_id, scheduled
        from executions
       where status = 1
       order by created_at, id
       limit ${limit}`,
    db<WaitingJobRow[]>`
      select id::text, coalesce(queue_name, ${UNNAMED_QUEUE}) as queue, task_identifier, created_at,
             null::int as org_id, null::int as data_source_id, null::int as query_id, null::int as user_id, null::bool as scheduled
        from graphile_worker.jobs
       where locked_at is null and run_at <= now() and attempts < max_attempts and task_identifier <> 'execute_query'
       order by run_at, id
       limit ${limit}`,
  ])
  return [...executions, ...others]
}

/** A worker pool with what it is doing now and what it has done. */
export interface WorkerRow {
  worker_id: string
  hostname: string
  pid: number
  started_at: Date
  last_seen_at: Date
  /** The execution it runs now, if any. */
  execution_id: string | null
  /** Else a job it holds locked (any task), if any. */
  job_id: number | null
  job_task: string | null
  succeeded: number
  failed: number
  /** Seconds spent on finished executions. */
  working_seconds: number
}

/**
 * Every worker with a heartbeat row. Counts come from the executions it finished (kept for the retention period),
 * aggregated in one pass rather than per worker; a worker finishes nothing before it starts, so the oldest live
 * start bounds the read on the index of finished executions. The jobs workers hold are read in one pass too: a
 * read per worker would scan a long queue once for each.
 */
export async function workers(db: Db): Promise<WorkerRow[]> {
  return db<WorkerRow[]>`
    with done as (
      select worker_id,
             count(*) filter (where status = 3)::int as succeeded,
             count(*) filter (where status = 4)::int as failed,
             coalesce(extract(epoch from sum(finished_at - started_at)), 0)::float8 as working_seconds
        from executions
       where status in (3, 4) and worker_id in (select worker_id from worker_heartbeats)
         and finished_at >= (select min(started_at) from worker_heartbeats)
       group by worker_id),
    held as (
      select distinct on (locked_by) locked_by, id, task_identifier
        from graphile_worker.jobs
       where locked_by is not null
       order by locked_by, locked_at)
    select h.worker_id, h.hostname, h.pid, h.started_at, h.last_seen_at,
           run.id as execution_id, job.id as job_id, job.task_identifier as job_task,
           coalesce(done.succeeded, 0) as succeeded, coalesce(done.failed, 0) as failed,
           coalesce(done.working_seconds, 0) as working_seconds
      from worker_heartbeats h
      left join lateral (
        select e.id from executions e where e.worker_id = h.worker_id and e.status = 2 order by e.started_at limit 1
      ) run on true
      left join held job on job.locked_by = h.worker_id
      left join done on done.worker_id = h.worker_id
     order by h.started_at, h.worker_id`
}

/**
 * Scheduled, not archived, and either due or being refreshed right now. The two ways to be outdated are looked up
 * apart, each on its partial index (due refreshes, refreshes in flight), and the few queries they name read by id:
 * one OR across them would read every query of the organization.
 */
const outdated = (db: Db, orgId: number) => db`
  q.id = any(array(
    select d.id from queries d where d.schedule_next_at <= now()
    union all
    select e.query_id from executions e where e.scheduled and e.status in (1, 2)))
  and q.org_id = ${orgId} and not q.is_archived and q.schedule is not null`

export type OutdatedQueryRow = QueryRow & { is_favorite: boolean; starred_at: Date | null }

/** The organization's outdated queries, newest first, with the caller's star as every query list shows it. */
export async function outdatedQueries(db: Db, orgId: number, userId: number): Promise<OutdatedQueryRow[]> {
  return db<OutdatedQueryRow[]>`
    select ${queryColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at
      from ${queryTables(db)}
      left join favorites f on f.object_type = 'query' and f.object_id = q.id and f.user_id = ${userId}
     where ${outdated(db, orgId)}
     order by q.created_at desc, q.id desc`
}

export interface StatusCountsRow {
  queries_count: number
  query_results_count: number
  unused_query_results_count: number
  outdated_queries_count: number
  last_refresh_at: Date | null
  /** The oldest worker that beat within `liveSeconds`. */
  started_at: Date | null
  query_results_size: number
  database_size: number
  dashboards_count: number
  widgets_count: number
}

/**
 * The counters of /status.json in one round trip. "Unused" results are those the hourly cleanup would delete: no
 * query shows them and they are older than the retention. Sizes include indexes and TOAST, where chunk rows live.
 */
export async function statusCounts(db: Db, orgId: number, o: { retentionDays: number; liveSeconds: number }): Promise<StatusCountsRow> {
  const [row] = await db<StatusCountsRow[]>`
    select
      (select count(*)::int from queries where org_id = ${orgId}) as queries_count,
      (select count(*)::int from query_results where org_id = ${orgId}) as query_results_count,
      (select count(*)::int from dashboards where org_id = ${orgId}) as dashboards_count,
      (select count(*)::int from widgets w join dashboards d on d.id = w.dashboard_id where d.org_id = ${orgId}) as widgets_count,
      (select count(*)::int from query_results r
        where r.org_id = ${orgId}
          and r.retrieved_at < now() - make_interval(days => ${o.retentionDays}::int)
          and not exists (select 1 from queries where latest_query_data_id = r.id)) as unused_query_results_count,
      (select count(*)::int from queries q where ${outdated(db, orgId)}) as outdated_queries_count,
      (select max(created_at) from executions where org_id = ${orgId} and scheduled) as last_refresh_at,
      (select min(started_at) from worker_heartbeats
        where last_seen_at > now() - make_interval(secs => ${o.liveSeconds}::int)) as started_at,
      (pg_total_relation_size('query_results') + pg_total_relation_size('query_result_chunks'))::float8 as query_results_size,
      pg_database_size(current_database())::float8 as database_size`
  return row
}

/**
 * The queues a worker takes jobs from, whether or not anything waits in them now: each data source's executions
 * (`ds:<source>`, the name sightline_submit_execution gives them, ad hoc and scheduled alike) and the queue of every
 * other task (schedules' refreshes, mail, clean-ups).
 */
export async function servedQueues(db: Db): Promise<string[]> {
  const rows = await db<{ queue: string }[]>`select 'ds:' || id as queue from data_sources order by id`
  return [...rows.map((r) => r.queue), UNNAMED_QUEUE]
}
