import type { Db, Sql } from '../db/index.ts'
import type { ExecutionRow } from '../executions/index.ts'
import { recordEvent } from '../events/index.ts'
import { enqueue, removeQueuedJob } from '../jobs/index.ts'
import { log } from '../log.ts'
import { keepFailureForReport } from './failure-report.ts'
import { backoffMinutes, firstRunAt } from './next-run.ts'
import { countFailure, findBrokenChains, findScheduleState, setNextRunAt, setNextRuns } from './store.ts'

/** The graphile job that refreshes a query: one per query, replaced whenever its due time changes. */
const REFRESH_JOB_KEY_PREFIX = 'refresh:'
export const refreshJobKey = (queryId: number) => `${REFRESH_JOB_KEY_PREFIX}${queryId}`

/**
 * Puts a query's next refresh where its schedule says, in the caller's transaction: a graphile job due at that time
 * (graphile wakes for it within its poll interval), or none when the query is not scheduled.
 */
export async function planRefresh(db: Db, queryId: number, due: Date | null) {
  await setNextRunAt(db, queryId, due)
  if (due) await enqueue(db, 'refresh_query', { query_id: queryId }, { jobKey: refreshJobKey(queryId), runAt: due, maxAttempts: 3 })
  else await removeQueuedJob(db, refreshJobKey(queryId))
}

/** `planRefresh` for many queries at once, in a few statements whatever their number. */
export async function planRefreshes(db: Db, plans: { id: number; due: Date | null }[]) {
  await setNextRuns(db, plans, REFRESH_JOB_KEY_PREFIX)
}

/**
 * After a save, create, archive or restore: the first refresh is due one interval after the latest result (at once
 * when there is none or it is overdue). Archived queries and queries without a source are not refreshed.
 */
export async function scheduleChanged(db: Db, queryId: number, now = new Date()) {
  const q = await findScheduleState(db, queryId)
  if (!q) return
  const due = q.is_archived || q.data_source_id == null ? null : firstRunAt(q.schedule, q.retrieved_at, now)
  await planRefresh(db, queryId, due)
}

/**
 * A scheduled run ended. A failure counts against the query (the next run backs off by 2^failures minutes) and is
 * reported (the hook for "send_email_on_failed_scheduled_queries"); a success was already counted by the executor.
 */
/** What a scheduled run's end needs to know; `id` is null for a run refused before it had an execution. */
export type ScheduledRun = Pick<ExecutionRow, 'org_id' | 'user_id' | 'query_id' | 'scheduled' | 'created_at'> & { id: string | null }

export async function scheduledRunEnded(sql: Sql, execution: ScheduledRun, outcome: { resultId: number } | { error: string }) {
  if (!execution.scheduled || execution.query_id == null || !('error' in outcome)) return
  await sql.begin(async (tx) => {
    const q = await countFailure(tx, execution.query_id!)
    if (!q?.schedule_next_at) return
    // the planned next run counted the failures before this one: add the extra backoff this failure earns
    const extraMinutes = backoffMinutes(q.schedule_failures) - backoffMinutes(q.schedule_failures - 1)
    await planRefresh(tx, execution.query_id!, new Date(q.schedule_next_at.getTime() + extraMinutes * 60_000))
    await reportScheduledFailure(tx, execution, q.name, outcome.error, q.schedule_failures)
  })
}

/** A scheduled run failed: an audit event, and the failure kept for the owner's mailed report when the organization wants one. */
async function reportScheduledFailure(db: Db, execution: ScheduledRun, name: string, error: string, failures: number) {
  log.warn('scheduled query failed', { query: execution.query_id, failures, error })
  await recordEvent(db, {
    orgId: execution.org_id, userId: execution.user_id, action: 'scheduled_query_failed', objectType: 'query', objectId: execution.query_id,
    properties: { name, error, schedule_failures: failures, execution_id: execution.id },
  })
  await keepFailureForReport(db, { queryId: execution.query_id!, error, scheduleFailures: failures })
}

/** Queries overdue by more than a minute with no refresh job: their chain was broken (a crash); restart it now. */
export async function restartBrokenSchedules(sql: Sql): Promise<number> {
  const stuck = await findBrokenChains(sql, REFRESH_JOB_KEY_PREFIX)
  for (const id of stuck) await planRefresh(sql, id, new Date())
  return stuck.length
}
