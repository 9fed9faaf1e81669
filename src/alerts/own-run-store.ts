import type { Db } from '../db/index.ts'
import { removeQueuedJob } from '../jobs/index.ts'

/** The statements of an alert's own runs (own-runs.ts). */

export const alertRunJobKey = (alertId: number) => `alert-run:${alertId}`

/** The next own run of an alert at `at`, or none. */
export async function planAlertRun(db: Db, alertId: number, at: Date | null) {
  if (!at) return removeQueuedJob(db, alertRunJobKey(alertId))
  await db`select graphile_worker.add_job('run_alert_query', ${db.json({ alert_id: alertId })}::json, run_at => ${at}::timestamptz,
             job_key => ${alertRunJobKey(alertId)}::text, max_attempts => 3)`
}

export interface OwnRun {
  id: number
  org_id: number
  user_id: number
  options: Record<string, unknown>
  check_interval: number | null
  check_next_at: Date | null
  query_id: number
  query: string
  query_options: { parameters?: never[]; apply_auto_limit?: boolean }
  data_source_id: number | null
  is_archived: boolean
  /** Whether the owner may still see the query (an admin, or a group of theirs has its source). */
  owner_sees: boolean
}

export async function findOwnRun(db: Db, alertId: number): Promise<OwnRun | undefined> {
  const [row] = await db<OwnRun[]>`
    select a.id, a.org_id, a.user_id, a.options, a.check_interval, a.check_next_at, q.id as query_id, q.query,
           q.options as query_options, q.data_source_id, q.is_archived,
           (exists (select 1 from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = a.user_id and 'admin' = any(g.permissions))
            or exists (select 1 from data_source_groups dg join user_groups ug on ug.group_id = dg.group_id
                        where ug.user_id = a.user_id and dg.data_source_id = q.data_source_id)) as owner_sees
      from alerts a join queries q on q.id = a.query_id where a.id = ${alertId}`
  return row
}

export async function setNextCheck(db: Db, alertId: number, next: Date) {
  await db`update alerts set check_next_at = ${next} where id = ${alertId}`
}

/** "Evaluate now": the own run is due at once, and its result's check counts as asked for by hand. */
export async function markManualRun(db: Db, alertId: number) {
  await db`update alerts set check_manual = true, check_next_at = now() where id = ${alertId}`
}

/** The run Evaluate now asked for could not start: the next scheduled run's check is an ordinary one. */
export async function clearManualRun(db: Db, alertId: number) {
  await db`update alerts set check_manual = false where id = ${alertId}`
}

export async function setCheckExecution(db: Db, alertId: number, executionId: string) {
  await db`update alerts set check_execution_id = ${executionId} where id = ${alertId}`
}

/** A joined execution may have ended before the alert named it: then its result is checked now. */
export async function enqueueCheckOfFinished(db: Db, alertId: number, executionId: string) {
  await db`
    select graphile_worker.add_job('check_alerts',
             json_build_object('result_id', e.query_result_id, 'alert_ids', json_build_array(${alertId}::bigint), 'execution_id', e.id),
             max_attempts => 3)
      from executions e where e.id = ${executionId} and e.status = 3 and e.query_result_id is not null`
}

/**
 * Alerts overdue by more than a minute with no run job: their chain broke (a job that failed its attempts while the
 * database was away); each gets a job due now. How many were restarted.
 */
export async function restartBrokenAlertRuns(db: Db, limit = 1000): Promise<number> {
  const rows = await db`
    select graphile_worker.add_job('run_alert_query', json_build_object('alert_id', a.id), job_key => 'alert-run:' || a.id, max_attempts => 3)
      from alerts a
     where a.check_interval is not null and a.check_next_at < now() - interval '1 minute'
       and not exists (select 1 from graphile_worker.jobs j where j.key = 'alert-run:' || a.id)
     limit ${limit}`
  return rows.length
}
