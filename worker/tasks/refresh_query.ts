import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/sql.ts'
import { assertRefreshQuery } from '../../src/jobs/tasks.ts'
import { refreshQuery } from '../../src/schedules/refresh.ts'

/** A scheduled query's refresh came due (one keyed job per query, planned by src/schedules). */
export const refreshQueryTask = (sql: Sql, secretKey: string): Task => async (payload) => {
  await refreshQuery({ sql, secretKey }, assertRefreshQuery(payload).query_id)
}
