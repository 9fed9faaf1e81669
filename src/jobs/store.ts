import type { Db } from '../db/index.ts'
import type { JobStatus } from '../shared/job-status.ts'
import type { TaskPayloads } from './tasks.ts'

export interface JobRow {
  id: string
  org_id: number
  kind: string
  status: JobStatus
  error: string | null
  data_source_id: number | null
  user_id: number | null
  query_result_id: number | null
  created_at: Date
  updated_at: Date
}

export async function insertJob(db: Db, j: { orgId: number; kind: string; dataSourceId?: number; userId?: number }): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    insert into jobs (org_id, kind, data_source_id, user_id)
    values (${j.orgId}, ${j.kind}, ${j.dataSourceId ?? null}, ${j.userId ?? null}) returning *`
  return row
}

/** Minutes an unfinished job may go untouched before it counts as abandoned (a dead worker's, or none ran it). */
const ABANDONED_AFTER_MINUTES = 10

/** An unfinished job of this kind for this source, so a second request joins it instead of starting another. */
export async function findUnfinished(db: Db, kind: string, dataSourceId: number): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`
    select * from jobs where kind = ${kind} and data_source_id = ${dataSourceId} and status in (1, 2)
      and updated_at > now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES}) -- older ones were abandoned
    order by created_at desc limit 1`
  return row
}

/** Fails an unfinished job untouched for too long, so whoever polls it sees an end; the job as it is after. */
export async function failIfAbandoned(db: Db, job: JobRow, error: string): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    update jobs set status = 4, error = ${error}, updated_at = now()
     where id = ${job.id} and status in (1, 2) and updated_at < now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES})
    returning *`
  return row ?? job
}

export async function findJob(db: Db, orgId: number, id: string): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`select * from jobs where id = ${id} and org_id = ${orgId}`
  return row
}

export async function setJobStatus(db: Db, id: string, status: JobStatus, error: string | null = null) {
  await db`update jobs set status = ${status}, error = ${error}, updated_at = now() where id = ${id}`
}

/** Takes a keyed graphile job off the queue (a no-op when there is none), in the caller's transaction. */
export async function removeQueuedJob(db: Db, jobKey: string) {
  await db`select graphile_worker.remove_job(${jobKey})`
}

/** The organization a job belongs to (a worker task is handed only the job's id). */
export async function findJobOrgId(db: Db, id: string): Promise<number | undefined> {
  const [row] = await db<{ org_id: number }[]>`select org_id from jobs where id = ${id}`
  return row?.org_id
}

/**
 * Queue a graphile-worker job in the caller's transaction, so a row and the job that processes it are committed
 * together or not at all. A keyed job replaces the waiting one of the same key; with `keepRunAt` it keeps that one's
 * due time (graphile's 'preserve_run_at'), so work added meanwhile joins a batch instead of postponing it.
 */
export async function enqueue<T extends keyof TaskPayloads>(
  db: Db, task: T, payload: TaskPayloads[T],
  o: { jobKey?: string; queue?: string; maxAttempts?: number; runAt?: Date; keepRunAt?: boolean } = {},
) {
  await db`select graphile_worker.add_job(
    ${task}::text, ${db.json(payload as never)}::json, queue_name => ${o.queue ?? null}::text,
    run_at => ${o.runAt ?? null}::timestamptz, max_attempts => ${o.maxAttempts ?? 3}::int, job_key => ${o.jobKey ?? null}::text,
    job_key_mode => ${o.keepRunAt ? 'preserve_run_at' : 'replace'}::text)`
}
