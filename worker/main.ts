import { Logger, parseCrontab, run, type Runner } from 'graphile-worker'
import type { Sql } from '../src/db/sql.ts'
import { log } from '../src/log.ts'
import { crontab, taskList } from './tasks/index.ts'

export interface WorkerOptions {
  connectionString: string
  sql: Sql
  secretKey: string
  concurrency: number
}

/** Start graphile-worker in this process; signals are handled by src/main.ts, which stops it in order. */
export async function startWorker(o: WorkerOptions): Promise<Runner> {
  const runner = await run({
    connectionString: o.connectionString,
    concurrency: o.concurrency,
    taskList: taskList({ sql: o.sql, secretKey: o.secretKey }),
    parsedCronItems: parseCrontab(crontab),
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger,
  })
  log.info('worker started', { concurrency: o.concurrency })
  return runner
}

/** graphile-worker's messages, in Sightline's log format; its debug chatter only at debug level. */
export const workerLogger = new Logger(() => (level, message, meta) => {
  if (level === 'error') log.error(message, { source: 'graphile-worker', ...meta })
  else if (level === 'warning') log.warn(message, { source: 'graphile-worker', ...meta })
  else if (level === 'info') log.info(message, { source: 'graphile-worker' })
  else log.debug(message, { source: 'graphile-worker' })
})

/** For one-off calls (migrations) that should only speak up when something is wrong. */
export const quietLogger = new Logger(() => (level, message, meta) => {
  if (level === 'error' || level === 'warning') workerLogger.error(message, meta)
})
