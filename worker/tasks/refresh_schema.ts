import type { Task } from 'graphile-worker'
import { refreshSchema } from '../../src/data-sources/index.ts'
import type { Sql } from '../../src/db/index.ts'
import { assertRefreshSchema } from '../../src/jobs/index.ts'

/** Read a source's tables and columns and cache them; the job row tells the waiting browser how it went. */
export const refreshSchemaTask = (sql: Sql, secretKey: string): Task => async (payload) => {
  await refreshSchema(sql, secretKey, assertRefreshSchema(payload))
}
