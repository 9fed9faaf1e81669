import type { Task } from 'graphile-worker'
import { assertSendFailureReport } from '../../src/jobs/index.ts'
import { sendFailureReport, type ReportDeps } from '../../src/schedules/index.ts'

/** Gather one user's failed scheduled queries into one mail (queued for send_mail, which does the sending). */
export const sendFailureReportTask = (deps: ReportDeps): Task => async (payload) => {
  await sendFailureReport(deps, assertSendFailureReport(payload).user_id)
}
