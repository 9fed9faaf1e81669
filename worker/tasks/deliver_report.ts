import type { Task } from 'graphile-worker'
import { runReportDelivery, type ReportDeliveryDeps, assertDeliverReport } from '../../src/reports/index.ts'

/** One report to one recipient: claimed, sent once, recorded (as alert deliveries, decision 0022). */
export const deliverReportTask = (deps: ReportDeliveryDeps): Task => async (payload, helpers) => {
  const { delivery_id } = assertDeliverReport(payload)
  await runReportDelivery(deps, delivery_id, helpers.job.locked_by ?? 'unknown', Number(helpers.job.id))
}
