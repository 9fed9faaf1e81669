import { randomUUID } from 'node:crypto'
import { findDataSource } from '../data-sources/index.ts'
import type { CoreDeps } from '../deps.ts'
import { dropdownValuesFor, submit } from '../executions/index.ts'
import { HttpError } from '../errors.ts'
import { log } from '../log.ts'
import { applyParameters, ParameterError } from '../shared/parameters/index.ts'
import { parameterValues } from './body.ts'
import * as store from './own-run-store.ts'

export { planAlertRun, restartBrokenAlertRuns } from './own-run-store.ts'

/**
 * Alerts with parameter values of their own (beyond the established tool, whose alerts on parameterised queries stay
 * unknown, reference redash-server.md §11.4): every `check_interval` seconds the query runs with those values through
 * the ordinary execution machinery, as the alert's owner, and the stored result is evaluated for this alert alone
 * (the execution's id is written on the alert before it is submitted, so its result cannot arrive unrecognised).
 *
 * An alert's own run came due: plan the next at once (the chain never depends on this run), then submit this one.
 * Whether a run was submitted (or an identical one in flight joined). */
export async function runAlertQuery(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, alertId: number, now = new Date()): Promise<boolean> {
  const a = await store.findOwnRun(deps.sql, alertId)
  if (!a?.check_interval || !a.check_next_at) return false
  if (a.check_next_at.getTime() > now.getTime() + 1000) {
    await store.planAlertRun(deps.sql, a.id, a.check_next_at)
    return false
  }
  const next = new Date(now.getTime() + a.check_interval * 1000)
  await deps.sql.begin(async (tx) => {
    await store.setNextCheck(tx, a.id, next)
    await store.planAlertRun(tx, a.id, next)
  })
  if (a.is_archived || a.data_source_id == null || !a.owner_sees) return false
  const ds = await findDataSource(deps.sql, a.org_id, a.data_source_id)
  if (!ds || ds.paused) return false
  const defs = a.query_options.parameters ?? []
  try {
    const values = parameterValues(a.options) ?? {}
    const text = applyParameters(a.query, defs, values, { now, dropdownValues: await dropdownValuesFor(deps.sql, a.org_id, defs) })
    const executionId = randomUUID()
    await store.setCheckExecution(deps.sql, a.id, executionId)
    const outcome = await submit(deps, {
      orgId: a.org_id, dataSource: ds, text, queryId: a.query_id, userId: a.user_id, maxAge: 0,
      applyAutoLimit: !!a.query_options.apply_auto_limit, scheduled: true, executionId,
    })
    // joined an identical run already in flight: its result is the one to evaluate
    if ('execution' in outcome && outcome.execution.id !== executionId) {
      await store.setCheckExecution(deps.sql, a.id, outcome.execution.id)
      await store.enqueueCheckOfFinished(deps.sql, a.id, outcome.execution.id)
    }
    return true
  } catch (error) {
    if (!(error instanceof ParameterError) && !(error instanceof HttpError)) throw error
    log.warn("an alert's own run was refused", { alert: a.id, error: error.message })
    return false
  }
}
