import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { Logger, parseCrontab, run, type Runner, type WorkerEvents } from 'graphile-worker'
import type { Config } from '../src/config.ts'
import { asyncCommitUrl, connect, CANCEL_CHANNEL, ExecutionSignals, DONE_CHANNEL } from '../src/db/index.ts'
import { HandOffSlots, ResultStoredHooks } from '../src/executions/index.ts'
import { provideDemoDatabase } from '../src/demo/index.ts'
import { warmForReports } from '../src/reports/index.ts'
import { log } from '../src/log.ts'
import { closeWarmPostgresConnections } from '../src/runners/index.ts'
import { Heartbeat } from '../src/workers/index.ts'
import { crontab, executionContext, taskList, type TaskDeps } from './tasks/index.ts'

export interface WorkerOptions {
  connectionString: string
  secretKey: string
  features: TaskDeps['features']
  config: Pick<Config, 'workerConcurrency' | 'maxResultRows' | 'maxResultBytes' | 'maxCellBytes' | 'resultRetentionDays' | 'browserEventRetentionDays' | 'workerDeadAfterSeconds' | 'mail' | 'baseUrl' | 'port' | 'dataDir'>
}

export interface RunningWorker {
  /** Subscribe here to hear of every result this worker stores. */
  resultStored: ResultStoredHooks
  stop(): Promise<void>
}

/** Start graphile-worker in this process; signals are handled by src/lifecycle.ts, which stops it in order. */
export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const concurrency = o.config.workerConcurrency
  // the Demo source's queries read the shop in this worker's own data directory, wherever the web process runs
  provideDemoDatabase(o.config.dataDir)
  // everything the worker writes can be redone (results, execution states, job bookkeeping, next refreshes), so its
  // connections commit without waiting for the disk: decision 0012
  const sql = connect(o.connectionString, { max: concurrency + 4, asyncCommit: true })
  const heartbeat = new Heartbeat(sql, { concurrency, deadAfterSeconds: o.config.workerDeadAfterSeconds, secretKey: o.secretKey })
  const cancels = new ExecutionSignals(sql, CANCEL_CHANNEL)
  await cancels.start()
  // reports wait for the runs that refresh their widgets before drawing them
  const executionsDone = new ExecutionSignals(sql, DONE_CHANNEL)
  await executionsDone.start()
  const resultStored = new ResultStoredHooks()
  // jobs are locked in the name of the worker pool; its id is only known as graphile-worker creates it
  const events: WorkerEvents = new EventEmitter()
  let poolId: string | undefined
  events.on('pool:create', ({ workerPool }) => {
    poolId ??= workerPool.id
    heartbeat.add(workerPool.id)
  })
  const taskDeps = { sql, secretKey: o.secretKey, config: o.config, cancels, resultStored, executionsDone, features: o.features }
  const runner: Runner = await run({
    connectionString: asyncCommitUrl(o.connectionString),
    concurrency,
    taskList: taskList(taskDeps),
    parsedCronItems: parseCrontab(crontab),
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger,
    events,
    // completions are written in small batches: one round trip for several finished jobs when the worker is busy
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  })
  // new executions are handed straight to this process's idle slots; the job queue keeps what waits. The slots run
  // in the pool's name, so monitoring shows one worker per process, busy with either kind of run, and counts both.
  const slots = new HandOffSlots(executionContext(taskDeps, resultStored), poolId ?? `hand-off:${randomUUID()}`, concurrency)
  heartbeat.add(slots.workerId)
  await slots.start()
  heartbeat.start()
  void heartbeat.tick()
  log.info('worker started', { concurrency })
  void warmForReports(sql).catch((error) => log.warn('the report drawing was not warmed up', { error: String(error) }))
  return {
    resultStored,
    stop: async () => {
      await slots.stop()
      await runner.stop()
      await heartbeat.stop()
      await cancels.stop()
      await executionsDone.stop()
      await closeWarmPostgresConnections()
      await sql.end({ timeout: 5 })
    },
  }
}

/** graphile-worker's messages, in Sightline's log format; its debug chatter only at debug level. */
export const workerLogger = new Logger(() => (level, message, meta) => {
  if (level === 'error') log.error(message, { source: 'graphile-worker', ...briefMeta(meta) })
  else if (level === 'warning') log.warn(message, { source: 'graphile-worker', ...briefMeta(meta) })
  else if (level === 'info') log.info(message, { source: 'graphile-worker' })
  else log.debug(message, { source: 'graphile-worker' })
})

/**
 * An error in graphile-worker's fields can carry a whole pg client (kilobytes a line, each time the database goes away),
 * and a failed job its payload, which for a mail is the invitation or reset link itself: neither is logged.
 */
function briefMeta(meta?: Record<string, unknown>): Record<string, unknown> | undefined {
  const job = meta?.job as { id?: unknown; task_identifier?: unknown; attempts?: unknown; max_attempts?: unknown } | undefined
  const brief = job && typeof job === 'object'
    ? { ...meta, job: { id: job.id, task_identifier: job.task_identifier, attempts: job.attempts, max_attempts: job.max_attempts } }
    : meta
  const error = meta?.error as { code?: unknown } | undefined
  return error && typeof error === 'object' ? { ...brief, error: String(error), code: error.code } : brief
}

/** For one-off calls (migrations) that should only speak up when something is wrong. */
export const quietLogger = new Logger(() => (level, message, meta) => {
  if (level === 'error' || level === 'warning') workerLogger.error(message, meta)
})
