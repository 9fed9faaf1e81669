import type { Db } from '../db/index.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import type { ScheduleInput } from './next-run.ts'

/** The schedule columns of a query, kept on the queries table; this store owns reading and writing them. */

/** A query as its refresh needs it. */
export interface RefreshableQueryRow {
  id: number
  org_id: number
  user_id: number
  query: string
  options: { parameters?: ParameterDefinition[]; apply_auto_limit?: boolean }
  schedule: ScheduleInput | null
  schedule_failures: number
  schedule_next_at: Date | null
  data_source_id: number | null
  is_archived: boolean
}

export async function findRefreshable(db: Db, queryId: number): Promise<RefreshableQueryRow | undefined> {
  const [row] = await db<RefreshableQueryRow[]>`
    select id, org_id, user_id, query, options, schedule, schedule_failures, schedule_next_at, data_source_id, is_archived
      from queries where id = ${queryId}`
  return row
}

/**
 * Queries due by `dueBy`, oldest first, locked for the caller's transaction. Rows another refresh holds are skipped
 * (it refreshes them), and a row it moved on meanwhile is no longer due when locked, so no due time is taken twice.
 */
export async function lockDue(db: Db, dueBy: Date, limit: number): Promise<RefreshableQueryRow[]> {
  return db<RefreshableQueryRow[]>`
    select id, org_id, user_id, query, options, schedule, schedule_failures, schedule_next_at, data_source_id, is_archived
      from queries where schedule_next_at <= ${dueBy}
     order by schedule_next_at limit ${limit}
       for update skip locked`
}

/**
 * Many queries' next refreshes in two statements: their due times, and their keyed graphile jobs replaced (a job
 * running now keeps running, and the next one is added beside it) or, with no due time, taken off the queue.
 */
export async function setNextRuns(db: Db, plans: { id: number; due: Date | null }[], jobKeyPrefix: string) {
  if (!plans.length) return
  const ids = plans.map((p) => p.id)
  const dues = plans.map((p) => p.due?.toISOString() ?? null)
  await db`
    update queries q set schedule_next_at = p.due
      from unnest(${ids}::bigint[], ${dues}::timestamptz[]) as p(id, due) where q.id = p.id`
  const planned = plans.filter((p) => p.due)
  if (planned.length) {
    await db`
      select count(*) from graphile_worker.add_jobs(array(
        select ('refresh_query', json_build_object('query_id', id), null, due, 3, ${jobKeyPrefix} || id, null, null)::graphile_worker.job_spec
          from unnest(${planned.map((p) => p.id)}::bigint[], ${planned.map((p) => p.due!.toISOString())}::timestamptz[]) as p(id, due)))`
  }
  const dropped = plans.filter((p) => !p.due)
  if (dropped.length) {
    await db`select graphile_worker.remove_job(${jobKeyPrefix} || id) from unnest(${dropped.map((p) => p.id)}::bigint[]) as id`
  }
}

/** What plans a query's first refresh after a change: its schedule and when its latest result was retrieved. */
export interface ScheduleStateRow {
  schedule: ScheduleInput | null
  is_archived: boolean
  data_source_id: number | null
  retrieved_at: Date | null
}

export async function findScheduleState(db: Db, queryId: number): Promise<ScheduleStateRow | undefined> {
  const [row] = await db<ScheduleStateRow[]>`
    select q.schedule, q.is_archived, q.data_source_id, r.retrieved_at
      from queries q left join query_results r on r.id = q.latest_query_data_id
     where q.id = ${queryId}`
  return row
}

export async function setNextRunAt(db: Db, queryId: number, due: Date | null) {
  await db`update queries set schedule_next_at = ${due} where id = ${queryId}`
}

/** Counts one more failed scheduled run; the query's schedule as it is after. */
export async function countFailure(db: Db, queryId: number) {
  const [row] = await db<{ schedule: ScheduleInput | null; schedule_failures: number; schedule_next_at: Date | null; name: string }[]>`
    update queries set schedule_failures = schedule_failures + 1 where id = ${queryId}
    returning schedule, schedule_failures, schedule_next_at, name`
  return row
}

/**
 * Queries overdue by more than a minute with neither a refresh job nor a scheduled run under way: their chain of
 * refreshes was broken (a crash).
 */
export async function findBrokenChains(db: Db, refreshJobKeyPrefix: string, limit = 1000): Promise<number[]> {
  const rows = await db<{ id: number }[]>`
    select q.id from queries q
     where q.schedule_next_at < now() - interval '1 minute'
       and not exists (select 1 from graphile_worker.jobs j where j.key = ${refreshJobKeyPrefix} || q.id)
       and not exists (select 1 from executions e where e.query_id = q.id and e.scheduled and e.status in (1, 2))
     limit ${limit}`
  return rows.map((r) => r.id)
}
