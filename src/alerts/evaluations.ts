import type { Deps } from '../deps.ts'
import { BadRequest } from '../errors.ts'
import { alertTexts } from '../shared/alert-texts.ts'
import * as queries from '../queries/index.ts'
import { resultOfExecution } from '../results/index.ts'
import { checkAlerts, type CheckOutcome } from './check.ts'
import { runAlertQuery } from './own-runs.ts'
import { clearManualRun, markManualRun } from './own-run-store.ts'
import type { AlertRow } from './store.ts'

/**
 * Evaluations outside the checks that follow each stored result: when an alert is created or saved (so the page shows
 * the state of its condition at once, after its subscriptions are saved), for a new subscriber of a triggered alert,
 * and "Evaluate now".
 */

/** The result the alert reads now: its own run's (alerts with parameter values), else its query's latest. */
export async function latestResultId(deps: Pick<Deps, 'sql'>, row: AlertRow): Promise<number | undefined> {
  if (row.check_interval !== null) {
    return row.check_execution_id ? (await resultOfExecution(deps.sql, row.check_execution_id)).result?.id ?? undefined : undefined
  }
  return (await queries.findById(deps.sql, row.query_id))?.latest_query_data_id ?? undefined
}

/**
 * A created or saved alert evaluated against the latest result by the ordinary rules: subscribers are told only of a
 * change. Nothing without a result (an alert with its own values waits for its run, planned when it was saved).
 */
export async function evaluateLatest(deps: Deps, row: AlertRow): Promise<CheckOutcome | undefined> {
  const resultId = await latestResultId(deps, row)
  if (resultId === undefined) return undefined
  return checkAlerts(deps, { resultId, which: { alertIds: [row.id] } })
}

/**
 * A subscription added to a triggered alert (not muted): its subscriber is told the current state once, from the
 * result that state was read from. Other subscribers are not told again.
 */
export async function tellNewSubscriber(deps: Deps, row: AlertRow, subscriptionId: number): Promise<void> {
  if (row.state !== 'triggered' || row.options.muted === true) return
  const resultId = row.checked_result_id ?? (await latestResultId(deps, row))
  if (resultId === undefined) return
  await checkAlerts(deps, { resultId, which: { alertIds: [row.id] }, newSubscription: subscriptionId })
}

/**
 * "Evaluate now" of an alert with its own parameter values: its query runs now with them (and the next run is an
 * interval later); that run's result is checked as a manual evaluation, which tells subscribers even without a change.
 * A 400 when it cannot run now (its source paused, its owner shut out of it, values the query no longer takes).
 */
export async function runOwnQueryNow(deps: Deps, row: AlertRow): Promise<void> {
  await markManualRun(deps.sql, row.id)
  if (await runAlertQuery(deps, row.id)) return
  await clearManualRun(deps.sql, row.id)
  throw new BadRequest(alertTexts.ownRunRefused)
}
