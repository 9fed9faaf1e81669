import type { Db } from '../db/index.ts'
import { log } from '../log.ts'
import { DeliveryFailed } from './delivery-failed.ts'
import {
  claimDeliveryRow, deliveryRowStatus, markDeliveryFailed, markDeliverySent, planDeliveryJob,
  type AttemptEntry, type ClaimedRow, type DeliveryLedger,
} from './delivery-job-store.ts'
import type { DeliveryAnswer } from './notification.ts'

/**
 * One delivery job (decision 0022), the same for every feature that notifies (alerts, reports): claim the row
 * (committed), send once, record the end. A failure the service may get over is tried again with growing pauses, up
 * to DELIVERY_ATTEMPTS; past that, or when trying again cannot help, it ends `failed` with its error kept. Nothing
 * is dropped silently.
 */
export const DELIVERY_ATTEMPTS = 6

/** Pauses between attempts: base, 3×, 9×, 27×, 81× (10 s base: about 20 minutes in all). */
export const retryDelayMs = (baseMs: number, attempt: number) => baseMs * 3 ** Math.max(0, attempt - 1)

export const deliveryJobTexts = {
  interrupted: 'The worker sending this stopped before it knew the answer; sent again.',
  /** What the log shows of a sent attempt to those who may not read the service's answer. */
  sent: (status: number | null) => (status === null ? 'Sent.' : `Sent: the service answered HTTP ${status}.`),
}

export interface DeliveryJobDeps {
  sql: Db
  /** First pause before a failed delivery is tried again (SIGHTLINE_ALERT_RETRY_BASE_MS). */
  retryBaseMs: number
}

/** What a feature tells the job: where its rows are, how one is sent, what follows giving up. */
export interface DeliveryJob<Row extends ClaimedRow> {
  ledger: DeliveryLedger
  /** For the log: "alert", "report". */
  what: string
  /** What the log says of the row besides its id (the alert, the report). */
  logContext: (row: Row) => Record<string, unknown>
  /** Sends the claimed row once; throws DeliveryFailed when it did not go. */
  send: (row: Row) => Promise<DeliveryAnswer>
  /** After a row ended `failed` for good. */
  gaveUp?: (row: Row) => Promise<void>
}

export async function runDeliveryJob<Row extends ClaimedRow>(deps: DeliveryJobDeps, job: DeliveryJob<Row>, deliveryId: number, worker: string, jobId: number): Promise<void> {
  const { ledger } = job
  const claimed = await claimDeliveryRow<Row>(deps.sql, ledger, deliveryId, worker, jobId)
  if (!claimed) return replanIfEarly(deps.sql, ledger, deliveryId)
  const entries: AttemptEntry[] = []
  const now = () => new Date().toISOString()
  if (claimed.interrupted) entries.push({ attempt: claimed.attempts - 1, at: now(), outcome: 'interrupted', status: null, message: deliveryJobTexts.interrupted })
  let answer: DeliveryAnswer
  try {
    answer = await job.send(claimed)
  } catch (error) {
    const failed = error instanceof DeliveryFailed ? error : new DeliveryFailed(error instanceof Error ? error.message : String(error), null, true)
    if (!(error instanceof DeliveryFailed)) log.error(`a ${job.what} delivery failed unexpectedly`, { delivery: deliveryId, error: error instanceof Error ? error.stack : String(error) })
    entries.push({ attempt: claimed.attempts, at: now(), outcome: 'failed', status: failed.status, message: failed.message, brief: failed.brief })
    const retry = failed.retryable && claimed.attempts < DELIVERY_ATTEMPTS
    const retryAt = retry ? new Date(Date.now() + retryDelayMs(deps.retryBaseMs, claimed.attempts)) : null
    await markDeliveryFailed(deps.sql, ledger, deliveryId, jobId, entries, failed.message, retryAt)
    log.warn(`${job.what} delivery failed`, { delivery: deliveryId, ...job.logContext(claimed), attempt: claimed.attempts, retry, error: failed.message })
    if (!retry) await job.gaveUp?.(claimed)
    return
  }
  entries.push({ attempt: claimed.attempts, at: now(), outcome: 'sent', status: answer.status, message: answer.detail, brief: deliveryJobTexts.sent(answer.status) })
  await markDeliverySent(deps.sql, ledger, deliveryId, jobId, answer, entries)
}

/** A job that ran before its delivery was due (a stale one): the delivery keeps a job at its own time. */
async function replanIfEarly(db: Db, ledger: DeliveryLedger, deliveryId: number) {
  const row = await deliveryRowStatus(db, ledger, deliveryId)
  if (row?.status === 'pending' && row.next_attempt_at.getTime() > Date.now()) await planDeliveryJob(db, ledger, deliveryId, row.next_attempt_at)
}
