import type { Task } from 'graphile-worker'
import { runSend, type SendDeps, assertSendReport } from '../../src/reports/index.ts'

/** One send of a report: drawn once, then one delivery job per recipient. */
export const sendReportTask = (deps: SendDeps): Task => async (payload, helpers) => {
  const { send_id } = assertSendReport(payload)
  await runSend(deps, send_id, Number(helpers.job.id))
}
