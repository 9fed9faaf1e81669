import type { Task } from 'graphile-worker'
import { checkAlerts, type CheckDeps, assertCheckAlerts } from '../../src/alerts/index.ts'

/** A stored result's alerts evaluated (queued by src/alerts/hooks.ts after every stored result that has alerts). */
export const checkAlertsTask = (deps: CheckDeps): Task => async (payload) => {
  const p = assertCheckAlerts(payload)
  const which = p.query_id !== undefined ? { queryId: p.query_id } : { alertIds: p.alert_ids! }
  await checkAlerts(deps, { resultId: p.result_id, which, executionId: p.execution_id })
}
