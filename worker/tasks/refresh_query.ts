import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { assertRefreshQuery } from '../../src/jobs/index.ts'
import { refreshQuery } from '../../src/schedules/index.ts'

/** A scheduled query's refresh came due (one keyed job per query, planned by src/schedules). */
export const refreshQueryTask = (sql: Sql, secretKey: string): Task => async (payload) => {
  await refreshQuery({ sql, secretKey }, assertRefreshQuery(payload).query_id)
}
