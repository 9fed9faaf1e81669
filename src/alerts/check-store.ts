import type { Db } from '../db/index.ts'
import type { ResultRow } from '../results/index.ts'
import { CHUNK_ROWS } from '../results/index.ts'
import { budgetTexts, DESTINATION_NOTIFICATIONS_PER_HOUR } from './delivery-budget.ts'
import type { AlertState } from './evaluate.ts'
import type { AlertRow } from './store.ts'

/** The statements of an alert check (check.ts): read a result, lock the alerts, record changes and queue deliveries. */

/** The graphile job of one delivery (decision 0022): one per delivery row, so a row is never sent by two jobs at once. */
export const deliveryJobKey = (deliveryId: number) => `alert-delivery:${deliveryId}`
/** Attempts graphile-worker gives one delivery job when it fails unexpectedly (a crash, the database gone). */
export const DELIVERY_JOB_ATTEMPTS = 6

/** A result with its first chunk when it is the only one (saves a round trip, as results/store.ts does). */
export async function findResultHeader(db: Db, id: number): Promise<ResultRow | undefined> {
  const [row] = await db<ResultRow[]>`
    select r.*, (select c.rows from query_result_chunks c where c.result_id = r.id and c.seq = 0 and r.row_count <= ${CHUNK_ROWS}
                   and not exists (select 1 from query_result_chunks d where d.result_id = r.id and d.seq = 1)) as first_chunk
      from query_results r where r.id = ${id}`
  return row
}

/** The established tool's webhook metadata of the run that stored the result (reference §1.5). */
export async function executionMetadata(db: Db, executionId: string): Promise<Record<string, unknown>> {
  const [row] = await db<{ email: string | null; query_id: number | null; queue: string; query_hash: string; scheduled: boolean }[]>`
    select u.email, e.query_id, e.queue, e.query_hash, e.scheduled
      from executions e left join users u on u.id = e.user_id where e.id = ${executionId}`
  if (!row) return {}
  return {
    Username: row.email ?? 'scheduler', query_id: row.query_id ?? 'adhoc', Queue: row.queue, 'Job ID': executionId,
    'Query Hash': row.query_hash, Scheduled: row.scheduled,
  }
}

export type LockedAlert = AlertRow & { query_name: string }

/**
 * The alerts a result is for, locked until the check commits: a query's alerts that watch its own results (no values
 * of their own), or the alerts whose own run stored it.
 */
export async function lockAlerts(db: Db, which: { queryId: number } | { alertIds: number[] }, resultId?: number): Promise<LockedAlert[]> {
  const where = 'queryId' in which
    ? db`a.query_id = ${which.queryId} and a.check_interval is null`
    : db`a.id = any(${which.alertIds}::bigint[])`
  // a check of an older result that ends after a newer one's must not put the alert back to what the old one said
  // (FOR UPDATE reads the row again once a concurrent check commits, and this condition with it)
  const newer = resultId === undefined ? db`true` : db`(a.checked_result_id is null or a.checked_result_id <= ${resultId})`
  return db<LockedAlert[]>`
    select a.*, q.name as query_name from alerts a join queries q on q.id = a.query_id
     where ${where} and ${newer} and not q.is_archived
     order by a.id for update of a`
}

/**
 * Every alert the check read was evaluated against this result, changed or not (the page shows when): the check's
 * last statement, stamped with the clock rather than the transaction's start, so it says when the check was done.
 */
export async function markChecked(db: Db, alertIds: number[], resultId: number, checkError: string | null = null) {
  if (!alertIds.length) return
  await db`
    update alerts set checked_result_id = ${resultId}, checked_at = clock_timestamp(), check_error = ${checkError}
     where id = any(${alertIds}::bigint[])`
}

export interface NewChange {
  alert_id: number
  old_state: AlertState
  new_state: AlertState
  value: unknown
  result_id: number
  reason: 'evaluation' | 'manual' | 'subscribed'
  skipped: string | null
  notify: boolean
  /** Whether the alert's state and last_triggered_at are written (a manual evaluation without a change writes none). */
  update_state: boolean
  /** Only this subscription is told (a new subscriber); null: every subscription of the alert. */
  subscription_id: number | null
  notification: unknown
}

/**
 * In one statement: the alerts' new states, a history row per change, a delivery row per subscription of each alert
 * that notifies (its target as it is now, for the log), and a graphile job per delivery, added in one batch (add_jobs:
 * a thousand add_job calls cost the check most of its time). A delivery to a destination the alert has already sent
 * its hourly budget to is recorded `refused`, with the reason, and gets no job; the alerts are locked by the check,
 * so two checks of one alert do not both take the budget's last place. Returns the deliveries queued.
 */
export async function recordChanges(db: Db, changes: NewChange[]): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    with c as (
      select * from jsonb_to_recordset(${db.json(changes as never)}::jsonb) as c(
        alert_id bigint, old_state text, new_state text, value jsonb, result_id bigint, reason text, skipped text,
        notify boolean, update_state boolean, subscription_id bigint, notification jsonb)
    ), updated as (
      update alerts a set state = c.new_state, last_triggered_at = now(), updated_at = now()
        from c where a.id = c.alert_id and c.update_state
    ), changed as (
      insert into alert_state_changes (alert_id, old_state, new_state, value, result_id, reason, skipped, notification)
      select alert_id, old_state, new_state, value, result_id, reason, skipped, notification from c
      returning id, alert_id
    ), queued as (
      insert into alert_deliveries (alert_id, state_change_id, subscription_id, destination_id, user_id, target, status, last_error)
      select changed.alert_id, changed.id, s.id, s.destination_id, s.user_id,
             case when s.destination_id is null
                  then jsonb_build_object('kind', 'user_email', 'user_id', u.id, 'email', u.email, 'name', u.name)
                  else jsonb_build_object('kind', 'destination', 'destination_id', d.id, 'name', d.name, 'type', d.type) end,
             case when spent.over then 'refused' else 'pending' end,
             case when spent.over then ${budgetTexts.refused} end
        from changed
        join c on c.alert_id = changed.alert_id and c.notify
        join alert_subscriptions s on s.alert_id = changed.alert_id and (c.subscription_id is null or s.id = c.subscription_id)
        left join destinations d on d.id = s.destination_id
        left join users u on u.id = s.user_id
        cross join lateral (
          select s.destination_id is not null and (
            select count(*) from alert_deliveries x
             where x.alert_id = changed.alert_id and x.destination_id = s.destination_id and x.status <> 'refused'
               and x.created_at > now() - interval '1 hour') >= ${DESTINATION_NOTIFICATIONS_PER_HOUR}::int as over) spent
      returning id, status
    )
    select count(*)::int as n from graphile_worker.add_jobs(
      (select coalesce(array_agg(row('deliver_alert', json_build_object('delivery_id', id), null, null, ${DELIVERY_JOB_ATTEMPTS}::int,
                                     'alert-delivery:' || id, null, null)::graphile_worker.job_spec), '{}')
         from queued where status = 'pending'))`
  return row.n
}

/** The manual evaluation an own run was asked for is done (its result was checked). */
export async function clearManual(db: Db, alertIds: number[]) {
  if (!alertIds.length) return
  await db`update alerts set check_manual = false where id = any(${alertIds}::bigint[])`
}
