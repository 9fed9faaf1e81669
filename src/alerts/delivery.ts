import type { CoreDeps } from '../deps.ts'
import { deliver, DeliveryFailed } from '../destinations/index.ts'
import type { DeliveryAnswer, DeliveryTarget } from '../destinations/index.ts'
import { log } from '../log.ts'
import { dedupKeyOf } from './check.ts'
import { claimDelivery, deliveryStatus, markFailed, markSent, planDelivery, type AttemptEntry, type ClaimedDelivery } from './delivery-store.ts'

/**
 * One delivery job (decision 0022): claim the row (committed), send once through the destinations' `deliver`, then
 * record the end. A failure the service may get over is tried again with growing pauses, up to DELIVERY_ATTEMPTS;
 * past that, or when trying again cannot help, it ends `failed` with its error kept. Nothing is dropped silently.
 */
export const DELIVERY_ATTEMPTS = 6

export const deliveryTexts = {
  interrupted: 'The worker sending this stopped before it knew the answer; sent again.',
  noSubscriber: 'The subscriber no longer exists or is disabled.',
  lostAccess: "The subscriber can no longer see the alert's query: not sent.",
  /** What the log shows of a sent attempt to those who may not read the service's answer. */
  sent: (status: number | null) => (status === null ? 'Sent.' : `Sent: the service answered HTTP ${status}.`),
}

/** Pauses between attempts: base, 3×, 9×, 27×, 81× (10 s base: about 20 minutes in all). */
export const retryDelayMs = (baseMs: number, attempt: number) => baseMs * 3 ** Math.max(0, attempt - 1)

export interface DeliveryDeps extends Pick<CoreDeps, 'sql' | 'secretKey'> {
  config: CoreDeps['config']
  /** First pause before a failed delivery is tried again (SIGHTLINE_ALERT_RETRY_BASE_MS). */
  retryBaseMs: number
  /** The sender: the destinations' deliver, replaceable in tests of this module alone. */
  send?: typeof deliver
}

export async function runDelivery(deps: DeliveryDeps, deliveryId: number, worker: string, jobId: number): Promise<void> {
  const claimed = await claimDelivery(deps.sql, deliveryId, worker, jobId)
  if (!claimed) return replanIfEarly(deps, deliveryId)
  const entries: AttemptEntry[] = []
  const now = () => new Date().toISOString()
  if (claimed.interrupted) entries.push({ attempt: claimed.attempts - 1, at: now(), outcome: 'interrupted', status: null, message: deliveryTexts.interrupted })
  let answer: DeliveryAnswer
  try {
    const target = targetOf(claimed)
    answer = await (deps.send ?? deliver)(deps, claimed.org_id, target, { ...claimed.notification, dedupKey: dedupKeyOf(claimed.alert_id, claimed.query_id) })
  } catch (error) {
    const failed = error instanceof DeliveryFailed ? error : new DeliveryFailed(error instanceof Error ? error.message : String(error), null, true)
    if (!(error instanceof DeliveryFailed)) log.error('an alert delivery failed unexpectedly', { delivery: deliveryId, error: error instanceof Error ? error.stack : String(error) })
    entries.push({ attempt: claimed.attempts, at: now(), outcome: 'failed', status: failed.status, message: failed.message, brief: failed.brief })
    const retry = failed.retryable && claimed.attempts < DELIVERY_ATTEMPTS
    const retryAt = retry ? new Date(Date.now() + retryDelayMs(deps.retryBaseMs, claimed.attempts)) : null
    await markFailed(deps.sql, deliveryId, jobId, entries, failed.message, retryAt)
    log.warn('alert delivery failed', { delivery: deliveryId, alert: claimed.alert_id, attempt: claimed.attempts, retry, error: failed.message })
    return
  }
  entries.push({ attempt: claimed.attempts, at: now(), outcome: 'sent', status: answer.status, message: answer.detail, brief: deliveryTexts.sent(answer.status) })
  await markSent(deps.sql, deliveryId, jobId, answer, entries)
}

/** The destination, or the subscriber's e-mail as it is now; a subscriber gone, disabled or shut out is a failure, not a send. */
function targetOf(d: ClaimedDelivery): DeliveryTarget {
  if (d.target.kind === 'destination' && d.destination_id !== null) return { kind: 'destination', destinationId: d.destination_id }
  if (d.target.kind === 'destination') throw new DeliveryFailed('The destination no longer exists.', null, false)
  if (!d.user_email || d.user_disabled) throw new DeliveryFailed(deliveryTexts.noSubscriber, null, false)
  // the mail carries the query's rows: not to someone who has since lost access to its source
  if (!d.user_sees) throw new DeliveryFailed(deliveryTexts.lostAccess, null, false)
  return { kind: 'user_email', email: d.user_email, name: d.user_name ?? '' }
}

/** A job that ran before its delivery was due (a stale one): the delivery keeps a job at its own time. */
async function replanIfEarly(deps: DeliveryDeps, deliveryId: number) {
  const row = await deliveryStatus(deps.sql, deliveryId)
  if (row?.status === 'pending' && row.next_attempt_at.getTime() > Date.now()) await planDelivery(deps.sql, deliveryId, row.next_attempt_at)
}
