import type { Task } from 'graphile-worker'
import { restartBrokenAlertRuns } from '../../src/alerts/index.ts'
import type { Sql } from '../../src/db/index.ts'
import { log } from '../../src/log.ts'

/** Every minute: an alert with its own runs whose chain of run jobs broke starts again (src/alerts/own-runs.ts). */
export const restartAlertRuns = (sql: Sql): Task => async () => {
  const restarted = await restartBrokenAlertRuns(sql)
  if (restarted) log.warn('restarted the own runs of overdue alerts', { restarted })
}
