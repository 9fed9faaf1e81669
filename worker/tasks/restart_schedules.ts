import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { log } from '../../src/log.ts'
import { restartBrokenSchedules } from '../../src/schedules/index.ts'

/** Every minute: a scheduled query whose chain of refresh jobs broke (a crash between two links) starts again. */
export const restartSchedules = (sql: Sql): Task => async () => {
  const restarted = await restartBrokenSchedules(sql)
  if (restarted) log.warn('restarted the refreshes of overdue scheduled queries', { restarted })
}
