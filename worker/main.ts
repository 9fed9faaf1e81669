import { parseCrontab, run, type Runner } from 'graphile-worker'
import type { Sql } from '../src/db/sql.ts'
import { log } from '../src/log.ts'
import { crontab, taskList } from './tasks/index.ts'

export interface WorkerOptions {
  connectionString: string
  sql: Sql
  concurrency: number
}

/** Start graphile-worker in this process; signals are handled by src/main.ts, which stops it in order. */
export async function startWorker(o: WorkerOptions): Promise<Runner> {
  const runner = await run({
    connectionString: o.connectionString,
    concurrency: o.concurrency,
    taskList: taskList(o.sql),
    parsedCronItems: parseCrontab(crontab),
    noHandleSignals: true,
    pollInterval: 1000,
    logger: undefined,
  })
  log.info('worker started', { concurrency: o.concurrency })
  return runner
}
