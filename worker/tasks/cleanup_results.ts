import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { deleteFinishedBefore } from '../../src/executions/index.ts'
import { log } from '../../src/log.ts'
import { deleteUnused } from '../../src/results/index.ts'

/** Hourly: results no query shows and older than the retention go, batch by batch; old execution rows too. */
export const cleanupResults = (sql: Sql, retentionDays: number): Task => async () => {
  let removed = 0
  for (let batch = await deleteUnused(sql, retentionDays); batch > 0; batch = await deleteUnused(sql, retentionDays)) removed += batch
  const executions = await deleteFinishedBefore(sql, retentionDays)
  if (removed || executions) log.info('old results removed', { results: removed, executions })
}
