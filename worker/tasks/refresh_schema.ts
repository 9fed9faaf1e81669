import type { Task } from 'graphile-worker'
import { refreshSchema } from '../../src/data-sources/schema-refresh.ts'
import type { Sql } from '../../src/db/sql.ts'
import { assertRefreshSchema } from '../../src/jobs/tasks.ts'

/** Read a source's tables and columns and cache them; the job row tells the waiting browser how it went. */
export const refreshSchemaTask = (sql: Sql, secretKey: string): Task => async (payload) => {
  await refreshSchema(sql, secretKey, assertRefreshSchema(payload))
}
