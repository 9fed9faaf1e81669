import type { Task } from 'graphile-worker'
import { runDelivery, type DeliveryDeps, assertDeliverAlert } from '../../src/alerts/index.ts'

/** One notification to one subscription: claimed, sent once, recorded (decision 0022). */
export const deliverAlertTask = (deps: DeliveryDeps): Task => async (payload, helpers) => {
  const { delivery_id } = assertDeliverAlert(payload)
  await runDelivery(deps, delivery_id, helpers.job.locked_by ?? 'unknown', Number(helpers.job.id))
}
