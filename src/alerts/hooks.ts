import type { Db, Sql } from '../db/index.ts'
import type { ResultStored } from '../executions/index.ts'
import type { QueryArchived } from '../queries/index.ts'
import { enqueueChecks } from './check-store.ts'
import { deleteAlertsOfQuery } from './store.ts'

/**
 * After every stored result (subscribed to the worker's ResultStoredHooks in worker/tasks/index.ts): a `check_alerts`
 * job for each query it became the latest result of that has alerts watching its own results, and one for the alerts
 * whose own run (parameter values, own interval) stored it. One statement each; nothing when no alert listens.
 */
export function alertsOnResultStored(sql: Sql) {
  return (event: ResultStored) => enqueueChecks(sql, event)
}

/** An archived query takes its alerts along, in the archive's transaction (spec 2 §4; subscribed in src/app.ts). */
export async function removeAlertsOfArchivedQuery(tx: Db, event: QueryArchived): Promise<void> {
  await deleteAlertsOfQuery(tx, event.queryId)
}
