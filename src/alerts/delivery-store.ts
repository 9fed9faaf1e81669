import type { Db } from '../db/index.ts'
import type { AlertNotification, DeliveryAnswer } from '../destinations/index.ts'
import { DELIVERY_JOB_ATTEMPTS, deliveryJobKey } from './check-store.ts'

/** The statements of one delivery attempt (delivery.ts; decision 0022). */

export interface ClaimedDelivery {
  id: number
  alert_id: number
  org_id: number
  query_id: number
  destination_id: number | null
  target: { kind: 'destination' | 'user_email'; destination_id?: number; user_id?: number; email?: string; name?: string }
  attempts: number
  /** The attempt before this one was cut short (its worker died while sending). */
  interrupted: boolean
  notification: Omit<AlertNotification, 'dedupKey'>
  /** The subscriber's e-mail and name as they are now (e-mail subscriptions). */
  user_email: string | null
  user_name: string | null
  user_disabled: boolean | null
  /** Whether the e-mail subscriber may still see the query (its rows are in the mail). */
  user_sees: boolean
}

/**
 * Takes a delivery for this job, committed before anything is sent: one that waits and is due, or one left `sending`
 * by this same job (graphile retried it after an unexpected error) or by a worker that is no longer alive (its
 * heartbeat row is gone once it counts as dead, and only then are its jobs unlocked). A live worker's attempt in
 * flight is never taken, so two workers never send one notification at once. Undefined: nothing to do.
 */
export async function claimDelivery(db: Db, id: number, worker: string, jobId: number): Promise<ClaimedDelivery | undefined> {
  const [row] = await db<ClaimedDelivery[]>`
    with claimed as (
      update alert_deliveries d
         set attempts = d.attempts + 1, status = 'sending', claimed_by = ${worker}, claimed_job = ${jobId}, claimed_at = now(), updated_at = now()
        from (select id, status = 'sending' as interrupted from alert_deliveries where id = ${id} for update) old
       where d.id = old.id and (
         (d.status = 'pending' and d.next_attempt_at <= now())
         or (d.status = 'sending' and (d.claimed_job = ${jobId}
             or not exists (select 1 from worker_heartbeats h where h.worker_id = d.claimed_by))))
      returning d.*, old.interrupted
    )
    select claimed.id, claimed.alert_id, a.org_id, a.query_id, claimed.destination_id, claimed.target, claimed.attempts,
           claimed.interrupted, c.notification, u.email as user_email, u.name as user_name, u.disabled_at is not null as user_disabled,
           (exists (select 1 from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = u.id and 'admin' = any(g.permissions))
            or exists (select 1 from data_source_groups dg join user_groups ug on ug.group_id = dg.group_id
                        where ug.user_id = u.id and dg.data_source_id = q.data_source_id)) as user_sees
      from claimed
      join alerts a on a.id = claimed.alert_id
      join queries q on q.id = a.query_id
      join alert_state_changes c on c.id = claimed.state_change_id
      left join users u on u.id = (claimed.target->>'user_id')::bigint`
  return row
}

/** Status of a delivery, for the job that finds nothing to claim. */
export async function deliveryStatus(db: Db, id: number): Promise<{ status: string; next_attempt_at: Date } | undefined> {
  const [row] = await db<{ status: string; next_attempt_at: Date }[]>`select status, next_attempt_at from alert_deliveries where id = ${id}`
  return row
}

export interface AttemptEntry {
  attempt: number
  at: string
  outcome: 'sent' | 'failed' | 'interrupted'
  status: number | null
  message: string
  /** The message without the service's own words (its answer's body), for readers other than the owner and admins. */
  brief?: string
}

/** Sent: the answer kept, and the attempt logged; only by the claim that sent it. */
export async function markSent(db: Db, id: number, jobId: number, answer: DeliveryAnswer, entries: AttemptEntry[]) {
  await db`
    update alert_deliveries
       set status = 'sent', sent_at = now(), updated_at = now(), claimed_by = null, claimed_job = null,
           answer = ${db.json({ status: answer.status, detail: answer.detail } as never)},
           template_error = ${answer.templateError ?? null},
           attempt_log = attempt_log || ${db.json(entries as never)}::jsonb
     where id = ${id} and status = 'sending' and claimed_job = ${jobId}`
}

/**
 * A failed attempt: logged, and either given up (`failed`, its error kept) or planned again at `retryAt` with a job of
 * its own (the running job's key moves to it: graphile-worker keys a new job when the keyed one is running).
 */
export async function markFailed(db: Db, id: number, jobId: number, entries: AttemptEntry[], error: string, retryAt: Date | null) {
  const [row] = await db<{ id: number }[]>`
    update alert_deliveries
       set status = ${retryAt ? 'pending' : 'failed'}, next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at),
           last_error = ${error}, updated_at = now(), claimed_by = null, claimed_job = null,
           attempt_log = attempt_log || ${db.json(entries as never)}::jsonb
     where id = ${id} and status = 'sending' and claimed_job = ${jobId}
    returning id`
  if (row && retryAt) await planDelivery(db, id, retryAt)
}

export async function planDelivery(db: Db, id: number, runAt: Date) {
  await db`select graphile_worker.add_job('deliver_alert', ${db.json({ delivery_id: id })}::json, run_at => ${runAt}::timestamptz,
             job_key => ${deliveryJobKey(id)}::text, max_attempts => ${DELIVERY_JOB_ATTEMPTS}::int)`
}
