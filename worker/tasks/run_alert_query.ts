import type { Task } from 'graphile-worker'
import { runAlertQuery, assertRunAlertQuery } from '../../src/alerts/index.ts'
import type { Sql } from '../../src/db/index.ts'

/** An alert with parameter values of its own came due: its query runs with them (src/alerts/own-runs.ts). */
export const runAlertQueryTask = (sql: Sql, secretKey: string): Task => async (payload) => {
  await runAlertQuery({ sql, secretKey }, assertRunAlertQuery(payload).alert_id)
}
