import type { Db } from '../db/index.ts'

/** Failed scheduled runs waiting to be reported to their query's owner (the failure report). */

/** Who a query's failures are reported to, and whether its organization wants them reported. */
export interface ReportTargetRow {
  user_id: number
  owner_disabled: boolean
  org_settings: Record<string, unknown>
}

export async function findReportTarget(db: Db, queryId: number): Promise<ReportTargetRow | undefined> {
  const [row] = await db<ReportTargetRow[]>`
    select q.user_id, u.disabled_at is not null as owner_disabled, o.settings as org_settings
      from queries q join users u on u.id = q.user_id join organizations o on o.id = q.org_id
     where q.id = ${queryId}`
  return row
}

export async function insertFailure(db: Db, f: { userId: number; queryId: number; error: string; scheduleFailures: number }) {
  await db`
    insert into scheduled_query_failures (user_id, query_id, error, schedule_failures)
    values (${f.userId}, ${f.queryId}, ${f.error}, ${f.scheduleFailures})`
}

/** One failure as the report shows it, with its query's name as it is now. */
export interface FailureRow {
  org_id: number
  query_id: number
  query_name: string
  error: string
  schedule_failures: number
  failed_at: Date
}

/** Takes (deletes) the user's unreported failures and returns them, oldest first: each failure is reported once. */
export async function takeFailures(db: Db, userId: number): Promise<FailureRow[]> {
  return db<FailureRow[]>`
    with taken as (delete from scheduled_query_failures where user_id = ${userId} returning *)
    select q.org_id, t.query_id, q.name as query_name, t.error, t.schedule_failures, t.failed_at
      from taken t join queries q on q.id = t.query_id
     order by t.failed_at, t.id`
}
