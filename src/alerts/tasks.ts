/** Payloads of the alerts' graphile-worker tasks, checked when a task runs (old jobs outlive code changes). */
export interface AlertTaskPayloads {
  /** Evaluate a query's alerts (or the alerts whose own run stored it) against one stored result. */
  check_alerts: { result_id: number; query_id?: number; alert_ids?: number[]; execution_id?: string }
  /** Send one delivery row (decision 0022). */
  deliver_alert: { delivery_id: number }
  /** Run an alert's query with its own parameter values (own-runs.ts). */
  run_alert_query: { alert_id: number }
}

const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0

export function assertCheckAlerts(payload: unknown): AlertTaskPayloads['check_alerts'] {
  const p = payload as AlertTaskPayloads['check_alerts']
  const which = p?.query_id !== undefined ? isId(p.query_id) : Array.isArray(p?.alert_ids) && p.alert_ids.every(isId)
  if (!isId(p?.result_id) || !which) throw new Error('Invalid check_alerts payload')
  return p
}

export function assertDeliverAlert(payload: unknown): AlertTaskPayloads['deliver_alert'] {
  const p = payload as AlertTaskPayloads['deliver_alert']
  if (!isId(p?.delivery_id)) throw new Error('Invalid deliver_alert payload')
  return p
}

export function assertRunAlertQuery(payload: unknown): AlertTaskPayloads['run_alert_query'] {
  const p = payload as AlertTaskPayloads['run_alert_query']
  if (!isId(p?.alert_id)) throw new Error('Invalid run_alert_query payload')
  return p
}
