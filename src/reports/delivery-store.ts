import type { Db } from '../db/index.ts'
import { planDeliveryJob, type ClaimedRow, type DeliveryLedger } from '../destinations/index.ts'

/**
 * One row per recipient of a send in `report_deliveries`, claimed, sent and recorded by the destinations' delivery
 * job, as alert deliveries are (decision 0022). A sent row keeps no error from the attempts before it.
 */
export const reportLedger: DeliveryLedger = {
  table: 'report_deliveries',
  task: 'deliver_report',
  jobKey: (id) => `report-delivery:${id}`,
  // graphile's own attempts, for a job that fails unexpectedly (a crash, the database gone)
  jobAttempts: 25,
  sentColumns: () => ({ last_error: null }),
}

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
    if (!d.refused) await planDeliveryJob(db, reportLedger, Number(row.id), new Date())
  }
}

/** Deliveries of one report to one destination in the last hour (its budget). */
export async function recentDestinationDeliveries(db: Db, subscriptionId: number, destinationId: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from report_deliveries
     where subscription_id = ${subscriptionId} and destination_id = ${destinationId} and created_at > now() - interval '1 hour'
       and status <> 'refused'`
  return row.n
}

/** A claimed report delivery, as `report_deliveries` holds it. */
export interface ClaimedDelivery extends ClaimedRow {
  send_id: number
  subscription_id: number
  user_id: number | null
  destination_id: number | null
  target: DeliveryTargetJson
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
