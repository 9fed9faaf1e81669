import type { CoreDeps } from '../deps.ts'
import { deliver, DeliveryFailed, runDeliveryJob } from '../destinations/index.ts'
import type { DeliveryTarget } from '../destinations/index.ts'
import { dedupKeyOf } from './check.ts'
import { alertLedger, deliveryContext, type ClaimedDelivery, type DeliveryContext } from './delivery-store.ts'

/**
 * One alert delivery job: the destinations' delivery job (claimed, sent once through `deliver`, retried with growing
 * pauses, recorded; decision 0022) sending the state change's notification to one subscriber.
 */
export const deliveryTexts = {
  gone: 'The alert no longer exists.',
  noSubscriber: 'The subscriber no longer exists or is disabled.',
  lostAccess: "The subscriber can no longer see the alert's query: not sent.",
}

export interface DeliveryDeps extends Pick<CoreDeps, 'sql' | 'secretKey'> {
  config: CoreDeps['config']
  /** First pause before a failed delivery is tried again (SIGHTLINE_ALERT_RETRY_BASE_MS). */
  retryBaseMs: number
  /** The sender: the destinations' deliver, replaceable in tests of this module alone. */
  send?: typeof deliver
}

export async function runDelivery(deps: DeliveryDeps, deliveryId: number, worker: string, jobId: number): Promise<void> {
  await runDeliveryJob<ClaimedDelivery>(deps, {
    ledger: alertLedger,
    what: 'alert',
    logContext: (d) => ({ alert: d.alert_id }),
    send: async (d) => {
      const context = await deliveryContext(deps.sql, d)
      if (!context) throw new DeliveryFailed(deliveryTexts.gone, null, false)
      const notification = { ...context.notification, dedupKey: dedupKeyOf(d.alert_id, context.query_id) }
      return (deps.send ?? deliver)(deps, context.org_id, targetOf(d, context), notification)
    },
  }, deliveryId, worker, jobId)
}

/** The destination, or the subscriber's e-mail as it is now; a subscriber gone, disabled or shut out is a failure, not a send. */
function targetOf(d: ClaimedDelivery, context: DeliveryContext): DeliveryTarget {
  if (d.target.kind === 'destination' && d.destination_id !== null) return { kind: 'destination', destinationId: d.destination_id }
  if (d.target.kind === 'destination') throw new DeliveryFailed('The destination no longer exists.', null, false)
  if (!context.user_email || context.user_disabled) throw new DeliveryFailed(deliveryTexts.noSubscriber, null, false)
  // the mail carries the query's rows: not to someone who has since lost access to its source
  if (!context.user_sees) throw new DeliveryFailed(deliveryTexts.lostAccess, null, false)
  return { kind: 'user_email', email: context.user_email, name: context.user_name ?? '' }
}
