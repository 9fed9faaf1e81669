import type { TaskList } from 'graphile-worker'
import type { Sql } from '../../src/db/sql.ts'
import { cleanupSessions } from './cleanup_sessions.ts'
import { refreshSchemaTask } from './refresh_schema.ts'

export interface TaskDeps {
  sql: Sql
  secretKey: string
}

/** Every task this worker runs, by identifier. Explicit imports, so Node, Deno and bundles agree. */
export function taskList(deps: TaskDeps): TaskList {
  return {
    cleanup_sessions: cleanupSessions(deps.sql),
    refresh_schema: refreshSchemaTask(deps.sql, deps.secretKey),
  }
}

/** Recurring tasks (graphile-worker's distributed cron: one run per tick across all workers). */
export const crontab = ['0 * * * * cleanup_sessions ?max=1'].join('\n')
