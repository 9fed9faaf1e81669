import type { Db } from '../db/index.ts'

/** One row per recipient of a send, claimed, sent and recorded as alert deliveries are (decision 0022). */

export const DELIVERY_JOB_ATTEMPTS = 25
export const deliveryJobKey = (id: number) => `report-delivery:${id}`

export type DeliveryTargetJson =
  | { kind: 'user'; user_id: number; name: string; email: string }
  | { kind: 'destination'; destination_id: number; name: string; type: string }

export interface NewDelivery {
  userId: number | null
  destinationId: number | null
  target: DeliveryTargetJson
  /** Refused before any attempt (past the destination's budget): recorded with the reason, not sent. */
  refused?: string
}

/** The deliveries of a send and their jobs, in the caller's transaction. */
export async function insertDeliveries(db: Db, sendId: number, subscriptionId: number, list: NewDelivery[]) {
  for (const d of list) {
    const [row] = await db<{ id: number }[]>`
      insert into report_deliveries (send_id, subscription_id, user_id, destination_id, target, status, last_error)
      values (${sendId}, ${subscriptionId}, ${d.userId}, ${d.destinationId}, ${db.json(d.target as never)},
              ${d.refused ? 'refused' : 'pending'}, ${d.refused ?? null})
      returning id`
    if (!d.refused) await planDelivery(db, Number(row.id), new Date())
  }
}

export async function planDelivery(db: Db, id: number, runAt: Date) {
  await db`select graphile_worker.add_job('deliver_report', ${db.json({ delivery_id: id })}::json, run_at => ${runAt}::timestamptz,
             job_key => ${deliveryJobKey(id)}::text, max_attempts => ${DELIVERY_JOB_ATTEMPTS}::int)`
}

/** Deliveries of one report to one destination in the last hour (its budget). */
export async function recentDestinationDeliveries(db: Db, subscriptionId: number, destinationId: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from report_deliveries
     where subscription_id = ${subscriptionId} and destination_id = ${destinationId} and created_at > now() - interval '1 hour'
       and status <> 'refused'`
  return row.n
}

export interface ClaimedDelivery {
  id: number
  send_id: number
  subscription_id: number
  user_id: number | null
  destination_id: number | null
  target: DeliveryTargetJson
  attempts: number
  interrupted: boolean
}

/**
 * Takes a delivery for this job, committed before anything is sent: one pending and due, or one left `sending` by
 * this same job or by a worker whose heartbeat is gone. A live worker's attempt is never taken.
 */
export async function claimDelivery(db: Db, id: number, worker: string, jobId: number): Promise<ClaimedDelivery | undefined> {
  const [row] = await db<ClaimedDelivery[]>`
    update report_deliveries d
       set attempts = d.attempts + 1, status = 'sending', claimed_by = ${worker}, claimed_job = ${jobId}, claimed_at = now(), updated_at = now()
      from (select id, status = 'sending' as interrupted from report_deliveries where id = ${id} for update) old
     where d.id = old.id and (
       (d.status = 'pending' and d.next_attempt_at <= now())
       or (d.status = 'sending' and (d.claimed_job = ${jobId}
           or not exists (select 1 from worker_heartbeats h where h.worker_id = d.claimed_by))))
    returning d.id, d.send_id, d.subscription_id, d.user_id, d.destination_id, d.target, d.attempts, old.interrupted`
  return row
}

export async function deliveryStatus(db: Db, id: number): Promise<{ status: string; next_attempt_at: Date } | undefined> {
  const [row] = await db<{ status: string; next_attempt_at: Date }[]>`select status, next_attempt_at from report_deliveries where id = ${id}`
  return row
}

export interface AttemptEntry {
  attempt: number
  at: string
  outcome: 'sent' | 'failed' | 'interrupted'
  status: number | null
  message: string
}

export async function markSent(db: Db, id: number, jobId: number, answer: { status: number | null; detail: string }, entries: AttemptEntry[]) {
  await db`
    update report_deliveries
       set status = 'sent', sent_at = now(), updated_at = now(), claimed_by = null, claimed_job = null, last_error = null,
           answer = ${db.json(answer as never)}, attempt_log = attempt_log || ${db.json(entries as never)}::jsonb
     where id = ${id} and status = 'sending' and claimed_job = ${jobId}`
}

export async function markFailed(db: Db, id: number, jobId: number, entries: AttemptEntry[], error: string, retryAt: Date | null) {
  const [row] = await db<{ id: number }[]>`
    update report_deliveries
       set status = ${retryAt ? 'pending' : 'failed'}, next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at),
           last_error = ${error}, updated_at = now(), claimed_by = null, claimed_job = null,
           attempt_log = attempt_log || ${db.json(entries as never)}::jsonb
     where id = ${id} and status = 'sending' and claimed_job = ${jobId}
    returning id`
  if (row && retryAt) await planDelivery(db, id, retryAt)
}

/**
 * When every delivery of a send has ended and none was sent: claims the right to tell the report's owner (once).
 * Undefined while some are still under way, or when one got through, or the owner was told already.
 */
export async function claimAllFailedNotice(db: Db, sendId: number): Promise<{ subscription_id: number } | undefined> {
  const [row] = await db<{ subscription_id: number }[]>`
    update report_sends s set owner_told = true, updated_at = now()
     where s.id = ${sendId} and not s.owner_told
       and exists (select 1 from report_deliveries d where d.send_id = s.id)
       and not exists (select 1 from report_deliveries d where d.send_id = s.id and d.status not in ('failed', 'refused'))
    returning s.subscription_id`
  return row
}

/** The delivery log of a report, newest first, with the send each belongs to. */
export async function listDeliveries(db: Db, subscriptionId: number, limit: number) {
  return db`
    select d.id, d.send_id, d.target, d.status, d.attempts, d.attempt_log, d.last_error, d.answer, d.next_attempt_at, d.sent_at,
           d.created_at, d.updated_at, s.due_at, s.late, s.preview_user_id is not null as preview, s.status as send_status, s.error as send_error
      from report_deliveries d join report_sends s on s.id = d.send_id
     where d.subscription_id = ${subscriptionId}
     order by d.id desc limit ${limit}`
}

/** Sends that ended without deliveries (skipped as empty, failed to draw), newest first, for the history. */
export async function listQuietSends(db: Db, subscriptionId: number, limit: number) {
  return db`
    select id, due_at, late, status, error, created_at from report_sends
     where subscription_id = ${subscriptionId} and status in ('skipped', 'failed') order by id desc limit ${limit}`
}
