import type { Db } from '../db/index.ts'
import type { DeliveryAnswer } from './notification.ts'

/**
 * The statements of one delivery attempt (delivery-job.ts; decision 0022), on the table a feature keeps its deliveries
 * in: one row per recipient or destination, with its status, attempts, attempt log, error, answer and claim. Alerts
 * (`alert_deliveries`) and reports (`report_deliveries`) keep the same columns for this; each adds its own (what
 * the delivery belongs to, how to compose it).
 */
export interface DeliveryLedger {
  table: 'alert_deliveries' | 'report_deliveries'
  /** The graphile task that sends one row: `{delivery_id}`. */
  task: 'deliver_alert' | 'deliver_report'
  /** The job's key: one job per row, so a row is never sent by two jobs at once. */
  jobKey: (id: number) => string
  /** Attempts graphile-worker gives one job that fails unexpectedly (a crash, the database gone). */
  jobAttempts: number
  /** What a sent row records besides its answer (never empty: at least one column). */
  sentColumns: (answer: DeliveryAnswer) => Record<string, string | null>
}

/** A row as the claim returns it: the ledger's own columns, and whether the attempt before was cut short. */
export interface ClaimedRow {
  id: number
  attempts: number
  /** The attempt before this one was cut short (its worker died while sending). */
  interrupted: boolean
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

/**
 * Takes a delivery for this job, committed before anything is sent: one that waits and is due, or one left `sending`
 * by this same job (graphile retried it after an unexpected error) or by a worker that is no longer alive (its
 * heartbeat row is gone once it counts as dead, and only then are its jobs unlocked). A live worker's attempt in
 * flight is never taken, so two workers never send one delivery at once. Undefined: nothing to do.
 */
export async function claimDeliveryRow<Row extends ClaimedRow>(db: Db, ledger: DeliveryLedger, id: number, worker: string, jobId: number): Promise<Row | undefined> {
  const table = db(ledger.table)
  const [row] = await db<Row[]>`
    update ${table} d
       set attempts = d.attempts + 1, status = 'sending', claimed_by = ${worker}, claimed_job = ${jobId}, claimed_at = now(), updated_at = now()
      from (select id, status = 'sending' as interrupted from ${table} where id = ${id} for update) old
     where d.id = old.id and (
       (d.status = 'pending' and d.next_attempt_at <= now())
       or (d.status = 'sending' and (d.claimed_job = ${jobId}
           or not exists (select 1 from worker_heartbeats h where h.worker_id = d.claimed_by))))
    returning d.*, old.interrupted`
  return row
}

/** Status of a delivery, for the job that finds nothing to claim. */
export async function deliveryRowStatus(db: Db, ledger: DeliveryLedger, id: number): Promise<{ status: string; next_attempt_at: Date } | undefined> {
  const [row] = await db<{ status: string; next_attempt_at: Date }[]>`select status, next_attempt_at from ${db(ledger.table)} where id = ${id}`
  return row
}

/** Sent: the answer kept, and the attempt logged; only by the claim that sent it. */
export async function markDeliverySent(db: Db, ledger: DeliveryLedger, id: number, jobId: number, answer: DeliveryAnswer, entries: AttemptEntry[]) {
  await db`
    update ${db(ledger.table)}
       set ${db(ledger.sentColumns(answer))}, status = 'sent', sent_at = now(), updated_at = now(), claimed_by = null, claimed_job = null,
           answer = ${db.json({ status: answer.status, detail: answer.detail } as never)},
           attempt_log = attempt_log || ${db.json(entries as never)}::jsonb
     where id = ${id} and status = 'sending' and claimed_job = ${jobId}`
}

/**
 * A failed attempt: logged, and either given up (`failed`, its error kept) or planned again at `retryAt` with a job of
 * its own (the running job's key moves to it: graphile-worker keys a new job when the keyed one is running).
 */
export async function markDeliveryFailed(db: Db, ledger: DeliveryLedger, id: number, jobId: number, entries: AttemptEntry[], error: string, retryAt: Date | null) {
  const [row] = await db<{ id: number }[]>`
    update ${db(ledger.table)}
       set status = ${retryAt ? 'pending' : 'failed'}, next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at),
           last_error = ${error}, updated_at = now(), claimed_by = null, claimed_job = null,
           attempt_log = attempt_log || ${db.json(entries as never)}::jsonb
     where id = ${id} and status = 'sending' and claimed_job = ${jobId}
    returning id`
  if (row && retryAt) await planDeliveryJob(db, ledger, id, retryAt)
}

/** The job that sends a row at `runAt` (in the caller's transaction when given one). */
export async function planDeliveryJob(db: Db, ledger: DeliveryLedger, id: number, runAt: Date) {
  await db`select graphile_worker.add_job(${ledger.task}::text, ${db.json({ delivery_id: id })}::json, run_at => ${runAt}::timestamptz,
             job_key => ${ledger.jobKey(id)}::text, max_attempts => ${ledger.jobAttempts}::int)`
}
