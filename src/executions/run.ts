import { runnerConfig } from '../data-sources/service.ts'
import type { DataSourceRow } from '../data-sources/store.ts'
import type { Sql } from '../db/sql.ts'
import { log } from '../log.ts'
import { linkToQueries } from '../results/store.ts'
import { storeResult } from '../results/writer.ts'
import { annotate } from '../runners/annotate.ts'
import { errorMessage } from '../runners/common.ts'
import { getRunner, shouldAnnotate, timeLimitMs } from '../runners/registry.ts'
import { RunnerError, type RunStream } from '../runners/runner.ts'
import type { ExecutionSignals } from './events.ts'
import * as store from './store.ts'
import type { ExecutionRow } from './store.ts'

export interface ExecutionContext {
  sql: Sql
  secretKey: string
  maxResultRows: number
  /** Cancel requests for executions running in this process. */
  cancels: ExecutionSignals
  /** Told about every finished execution (alerts and schedules hook in here). */
  onFinished?: (execution: ExecutionRow, outcome: { resultId: number } | { error: string }) => Promise<void>
}

/**
 * Runs one execution on this worker: claim it, run its text on the engine (stoppable by a cancel request or the
 * time limit), store the rows as they stream, and mark it done or failed. Never throws for a query's own failure,
 * so graphile-worker does not retry what the user must fix; crashes are recovered through the heartbeat instead.
 */
export async function runExecution(ctx: ExecutionContext, id: string, workerId: string): Promise<void> {
  const execution = await store.claim(ctx.sql, id, workerId)
  if (!execution) return // cancelled while waiting, or already taken by a worker that came back
  const controller = new AbortController()
  const off = ctx.cancels.on(id, () => controller.abort())
  try {
    await ctx.cancels.start()
    const [{ cancel_requested }] = await ctx.sql<{ cancel_requested: boolean }[]>`select cancel_requested from executions where id = ${id}`
    if (cancel_requested) controller.abort() // asked before we were listening
    const resultId = await runAndStore(ctx, execution, controller.signal)
    await ctx.onFinished?.(execution, { resultId })
  } catch (error) {
    const message = error instanceof RunnerError ? error.message : errorMessage(error)
    if (!(error instanceof RunnerError)) log.error('execution failed', { execution: id, error: error instanceof Error ? error.stack : String(error) })
    await store.markFailed(ctx.sql, id, message)
    await ctx.onFinished?.(execution, { error: message })
  } finally {
    off()
  }
}

async function runAndStore(ctx: ExecutionContext, execution: ExecutionRow, signal: AbortSignal): Promise<number> {
  const [ds] = await ctx.sql<DataSourceRow[]>`select * from data_sources where id = ${execution.data_source_id}`
  if (!ds) throw new RunnerError('Target data source not available.')
  const runner = getRunner(ds.type)
  if (!runner) throw new RunnerError(`Unknown data source type: ${ds.type}.`)
  const config = runnerConfig(ctx.secretKey, ds)
  const [facts] = await ctx.sql<{ org_limit: number; email: string | null }[]>`
    select coalesce((o.settings->>'query_time_limit')::int, 0) as org_limit,
           (select email from users where id = ${execution.user_id}) as email
      from organizations o where o.id = ${execution.org_id}`
  const text = shouldAnnotate(runner, config)
    ? annotate(execution.query_text, { user: facts?.email ?? 'scheduler', queryId: execution.query_id, queue: execution.queue, scheduled: execution.scheduled })
    : execution.query_text
  const startedAt = performance.now()
  const stream = await runner.run(config, text, { signal, timeoutMs: timeLimitMs(config, facts?.org_limit ?? 0) })
  try {
    return await storeRows(ctx, execution, ds.id, stream, startedAt)
  } catch (error) {
    // the rows were not (all) read: release the engine's cursor and connection
    await stream.batches[Symbol.asyncIterator]().return?.(undefined)
    throw error
  }
}

/** The result, its link to the queries showing this text, and the execution's end, in one transaction. */
function storeRows(ctx: ExecutionContext, execution: ExecutionRow, dataSourceId: number, stream: RunStream, startedAt: number): Promise<number> {
  return ctx.sql.begin(async (tx) => {
    const stored = await storeResult(tx, {
      orgId: execution.org_id, dataSourceId, queryHash: execution.query_hash, queryText: execution.query_text,
    }, stream, { maxRows: ctx.maxResultRows, startedAt })
    await linkToQueries(tx, dataSourceId, execution.query_hash, stored.id)
    if (execution.query_id != null) await tx`update queries set schedule_failures = 0 where id = ${execution.query_id} and schedule_failures > 0`
    await store.markDone(tx, execution.id, stored.id)
    return stored.id
  })
}
