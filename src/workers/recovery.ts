import { randomUUID } from 'node:crypto'
import { runnerConfig } from '../data-sources/index.ts'
import type { Sql } from '../db/index.ts'
import { dispatch } from '../executions/index.ts'
import { log } from '../log.ts'
import { isPlainRead, getRunner } from '../runners/index.ts'
import { scheduledRunEnded } from '../schedules/index.ts'
import { claimLost, endRecovery, liveWorkerCount, lostExecutionIds, type LostExecution } from './store.ts'

/** Runs of one execution before a crashing worker is blamed on the query and it is failed instead of retried. */
export const EXECUTION_ATTEMPTS = 2
/** How long stopping an orphaned statement in its engine may take before it counts as not confirmed. */
const STOP_ORPHAN_MS = 20_000

export const recoveryMessages = {
  cancelled: 'Query cancelled by user.',
  tooManyAttempts: 'The worker running this query stopped unexpectedly. Please run it again.',
  mayHaveChangedData: 'The worker running this query stopped; it was not run again because it may have changed data. Check the data before running it again.',
  noWorker: 'The worker running this query stopped, and no worker is running to run it again. Please run it again once a worker is running.',
  waitingForWorker: 'No worker is running to run this query. It stays queued and runs as soon as a worker starts.',
}

export interface RecoveryDeps {
  sql: Sql
  secretKey: string
  /** Seconds without a heartbeat after which a worker counts as dead (SIGHTLINE_WORKER_DEAD_AFTER_SECONDS). */
  deadAfterSeconds: number
  /** Set when a live worker recovers: it can run the retry itself, so nobody need look for one. */
  byWorker?: boolean
}

/** Every execution whose worker is gone, recovered (see `recoverExecution`). */
export async function recoverLostExecutions(deps: RecoveryDeps): Promise<{ retried: number; failed: number }> {
  const ids = await lostExecutionIds(deps.sql, deps.deadAfterSeconds)
  const outcomes = await Promise.all(ids.map((id) => recoverExecution(deps, id)))
  return { retried: outcomes.filter((o) => o === 'retried').length, failed: outcomes.filter((o) => o === 'failed').length }
}

/**
 * Recovers an execution whose worker is gone, once across processes (web or worker). Its source's slot is released
 * as the recovery starts (the queue page shows it as "worker lost" meanwhile). Its statement may still be running in
 * the engine, orphaned: it is stopped there first, through the runner. The execution then runs again,
 * unless the user cancelled it, it has had its attempts, it may have changed data and its statement could not be
 * confirmed stopped, or no worker is left to run it; it fails then, with a message saying which, so that pollers see
 * an end. Undefined when it was not lost (or another process is recovering it).
 */
export async function recoverExecution(deps: RecoveryDeps, id: string): Promise<'retried' | 'failed' | undefined> {
  const token = `recovery:${randomUUID()}`
  const lost = await claimLost(deps.sql, id, token, deps.deadAfterSeconds)
  if (!lost) return undefined
  const { execution, dataSource } = lost
  await dispatch(deps.sql, execution.data_source_id) // claiming it released its slot: the next one need not wait
  const stopped = await stopOrphan(deps.secretKey, lost)
  const error = await verdict(deps, lost, stopped)
  const ended = await endRecovery(deps.sql, id, token, error)
  if (!ended) return undefined // it ended otherwise meanwhile: the worker was only late, and finished it
  await dispatch(deps.sql, execution.data_source_id) // a retry waits for a slot
  log.warn('recovered an execution whose worker stopped', {
    execution: id, dataSource: dataSource?.id, attempts: execution.attempts, statementStopped: stopped, outcome: error ?? 'retried',
  })
  if (error !== undefined) await scheduledRunEnded(deps.sql, execution, { error })
  return error === undefined ? 'retried' : 'failed'
}

/**
 * Stops the execution's statement in its engine; true once the engine confirms it no longer runs and, for a statement
 * that may write, that it was ended before it committed anything (see the runner's `cancelOrphan`: no longer running
 * may also mean it finished). False when the engine cannot stop statements from elsewhere, the worker died before
 * saying where its statement ran (it may have died just as it started it), or the engine did not answer in time.
 */
async function stopOrphan(secretKey: string, { execution, dataSource }: LostExecution): Promise<boolean> {
  const runner = dataSource && getRunner(dataSource.type)
  if (!dataSource || !runner?.cancelOrphan || !execution.cancel_handle) return false
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_ORPHAN_MS)))
    return await Promise.race([runner.cancelOrphan(runnerConfig(secretKey, dataSource), execution.cancel_handle), timeout])
  } catch (error) {
    log.warn('an orphaned statement could not be stopped', { execution: execution.id, error: String(error) })
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Why the execution is not run again, or undefined when it is. */
async function verdict(deps: RecoveryDeps, { execution, dataSource }: LostExecution, stopped: boolean): Promise<string | undefined> {
  if (execution.cancel_requested) return recoveryMessages.cancelled
  if (execution.attempts >= EXECUTION_ATTEMPTS) return recoveryMessages.tooManyAttempts
  if (!stopped && !isPlainRead(execution.query_text, runnerSyntax(dataSource?.type))) return recoveryMessages.mayHaveChangedData
  if (!deps.byWorker && (await liveWorkerCount(deps.sql, deps.deadAfterSeconds)) === 0) return recoveryMessages.noWorker
  return undefined
}

const runnerSyntax = (type: string | undefined) => (type && getRunner(type)?.syntax) || 'sql'

const inFlight = new Map<string, Promise<unknown>>()

/**
 * `recoverExecution` for a poll that found the execution quiet: started at most once per process at a time, and
 * waited for up to `waitMs`, so a slow engine does not hold the poll.
 */
export async function recoverForPoll(deps: RecoveryDeps, id: string, waitMs: number): Promise<void> {
  let running = inFlight.get(id)
  if (!running) {
    running = recoverExecution(deps, id)
      .catch((error) => log.warn('execution recovery failed', { execution: id, error: String(error) }))
      .finally(() => inFlight.delete(id))
    inFlight.set(id, running)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))])
  clearTimeout(timer)
}
