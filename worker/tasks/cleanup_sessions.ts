import type { Task } from 'graphile-worker'
import { deleteExpiredSessions } from '../../src/credentials/index.ts'
import type { Sql } from '../../src/db/index.ts'
import { log } from '../../src/log.ts'

/** Hourly: drop sessions that have expired, so the table holds only live sign-ins. */
export const cleanupSessions = (sql: Sql): Task => async () => {
  const removed = await deleteExpiredSessions(sql)
  if (removed) log.info('expired sessions removed', { removed })
}
