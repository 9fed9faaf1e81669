import { openedConfig, runnerConfig } from '../data-sources/index.ts'
import type { Sql, ExecutionSignals } from '../db/index.ts'
import { log } from '../log.ts'
import { encodeChunk, readFirstChunk, storeRest, type FirstChunk } from '../results/index.ts'
import { annotationOf, withoutAnnotation, errorMessage, getRunner, shouldAnnotate, timeLimitMs, RunnerError, type RunStream, RESULTS_TYPE } from '../runners/index.ts'
import { referenceResolver, type ReferenceScope } from './query-references.ts'
import type { ResultStoredHooks } from './result-stored.ts'
import { StatementHandleRecorder } from './statement-handle.ts'
import * as store from './store.ts'
import type { ExecutionRow } from './store.ts'

export interface ExecutionContext {
  sql: Sql
  secretKey: string
  maxResultRows: number
  /** Bytes of stored JSON kept of one result, and of one value (results/result-caps.ts). */
  maxResultBytes: number
  maxCellBytes: number
  /** Cancel requests for executions running in this process. */
  cancels: ExecutionSignals
  /** Told about every finished execution (schedules count failures here). */
  onFinished?: (execution: ExecutionRow, outcome: { resultId: number } | { error: string }) => Promise<void>
  /** Told about every stored result and the saved queries it belongs to (alerts subscribe here). */
  resultStored?: ResultStoredHooks
}

/** A stored result, and the saved queries that show it as their latest. */
interface Stored {
  resultId: number
  queryIds: number[]
}

/** How long one job keeps running the executions waiting behind it before it hands its slot back. */
const CHAIN_MS = 1000

/**
 * Runs an execution on this worker, then, holding on to its source's slot, the next ones waiting for that source,
 * until none wait, a second has passed or the worker is stopping: a burst of queries on one source costs one
 * graphile job per slot and second, not one per query, and cannot keep other sources' work waiting. Each is claimed,
 * run on the engine (stoppable by a cancel request or the time limit), its rows stored as they stream, and marked
 * done or failed. A query's own failure never throws, so graphile-worker does not retry what the user must fix;
 * crashes are recovered through the heartbeat instead.
 */
export async function runExecution(ctx: ExecutionContext, id: string, workerId: string, stopping?: AbortSignal, slot?: number): Promise<{ slotOffered: boolean }> {
  // listening before the claim: a cancel request after it cannot be missed, and one before it fails the claim
  let claimed = await claimListening(ctx, id, () => store.claim(ctx.sql, id, workerId))
  if (!claimed) return { slotOffered: false } // cancelled while waiting, or already taken by a worker that came back
  const dataSourceId = claimed.claimed.execution.data_source_id
  const began = Date.now()
  while (claimed) {
    const { afterwards } = await runClaimed(ctx, claimed.claimed, claimed.signal)
    claimed.stop()
    // past a while, the slot goes back through graphile's queue, so other sources and tasks take their turn
    if (stopping?.aborted || Date.now() - began > CHAIN_MS) {
      await afterwards
      // what still waits gets a job of its own (at the back of graphile's queue), as does anything that came in between
      await store.dispatch(ctx.sql, dataSourceId)
      return { slotOffered: false }
    }
    // the next waiting run is claimed while the features hear of this one's end: a burst (schedules due on the
    // same minute) starts each run a round trip sooner. A hand-off slot that finds nothing is offered again at once.
    const offer = stopping?.aborted ? undefined : slot
    const next = claimNext(ctx, dataSourceId, workerId, offer)
    await afterwards
    claimed = await next
    // Nothing waited when the last look was taken after this run's end had committed: an execution queued since found
    // the slot free at its own dispatch, which follows its commit, so there is nothing left to dispatch here.
    if (!claimed) return { slotOffered: offer !== undefined }
  }
  return { slotOffered: false }
}

interface Listening {
  claimed: store.ClaimedExecution
  signal: AbortSignal
  stop: () => void
}

async function claimListening(ctx: ExecutionContext, id: string, claim: () => Promise<store.ClaimedExecution | undefined>): Promise<Listening | undefined> {
  const controller = new AbortController()
  const stop = ctx.cancels.on(id, () => controller.abort())
  await ctx.cancels.start()
  const claimed = await claim().catch((error) => { stop(); throw error })
  if (!claimed) {
    stop()
    return undefined
  }
  return { claimed, signal: controller.signal, stop }
}

/** The oldest execution waiting for this source, claimed for this worker (the signals remember a cancel sent meanwhile). */
async function claimNext(ctx: ExecutionContext, dataSourceId: number, workerId: string, offerSlot?: number): Promise<Listening | undefined> {
  const claimed = await store.claimNextWaiting(ctx.sql, dataSourceId, workerId, offerSlot)
  if (!claimed) return undefined
  const controller = new AbortController()
  const stop = ctx.cancels.on(claimed.execution.id, () => controller.abort())
  return { claimed, signal: controller.signal, stop }
}

/**
 * Runs a claimed execution to its end (stored, or failed); resolves once it has ended, to what is told of the end
 * afterwards (the features, the scheduler), still under way.
 */
async function runClaimed(ctx: ExecutionContext, claimed: store.ClaimedExecution, signal: AbortSignal): Promise<{ afterwards: Promise<void> }> {
  const { execution } = claimed
  let stored: Stored
  try {
    stored = await runAndStore(ctx, claimed, signal)
  } catch (error) {
    const message = error instanceof RunnerError ? error.message : errorMessage(error)
    if (!(error instanceof RunnerError)) log.error('execution failed', { execution: execution.id, error: error instanceof Error ? error.stack : String(error) })
    await store.markFailed(ctx.sql, execution, message)
    await ctx.onFinished?.(execution, { error: message })
    return { afterwards: Promise.resolve() }
  }
  const { resultId, queryIds } = stored
  const afterwards = (async () => {
    await ctx.resultStored?.emit({ resultId, queryIds, orgId: execution.org_id, dataSourceId: execution.data_source_id, executionId: execution.id })
    await ctx.onFinished?.(execution, { resultId })
  })().catch((error) => log.error('after a stored result', { execution: execution.id, error: error instanceof Error ? error.stack : String(error) }))
  // a promise inside an object: returned bare, the caller's await would wait for it too
  return { afterwards }
}

async function runAndStore(ctx: ExecutionContext, claimed: store.ClaimedExecution, signal: AbortSignal): Promise<Stored> {
  const { execution, dataSource: ds } = claimed
  if (!ds) throw new RunnerError('Target data source not available.')
  const runner = getRunner(ds.type)
  if (!runner) throw new RunnerError(`Unknown data source type: ${ds.type}.`)
  const config = await openedConfig(ctx, ds, { signal })
  const annotation = shouldAnnotate(runner, config)
    ? annotationOf({ user: claimed.userEmail ?? 'scheduler', queryId: execution.query_id, queue: execution.queue, scheduled: execution.scheduled })
    : null
  const text = annotation ? `${annotation} ${execution.query_text}` : execution.query_text
  const startedAt = performance.now()
  const handles = new StatementHandleRecorder(ctx.sql, execution)
  const user = claimed.userEmail == null ? undefined : { email: claimed.userEmail, name: claimed.userName ?? claimed.userEmail }
  // a Query Results query reads other queries as the user it runs for, and remembers every source it read
  const references: ReferenceScope | undefined = ds.type === RESULTS_TYPE
    ? {
      sql: ctx.sql, secretKey: ctx.secretKey, orgId: execution.org_id, orgTimeLimitSeconds: claimed.orgTimeLimitSeconds,
      userId: execution.user_id, user, maxResultRows: ctx.maxResultRows, maxCellBytes: ctx.maxCellBytes, sources: new Set(),
    }
    : undefined
  try {
    const stream = await runner.run(config, text, {
      signal, timeoutMs: timeLimitMs(config, claimed.orgTimeLimitSeconds), maxCellBytes: ctx.maxCellBytes, onStatement: handles.onStatement,
      maxResultBytes: ctx.maxResultBytes, queryResults: references && referenceResolver(references), user,
    })
    return await storeRun(ctx, claimed, stream, startedAt, references && [...references.sources].sort((a, b) => a - b))
  } catch (error) {
    // the message is about the user's text: the annotation is Sightline's, for the engine's process list only
    if (annotation && error instanceof RunnerError) throw new RunnerError(withoutAnnotation(error.message, annotation), error.kind)
    throw error
  } finally {
    handles.stop()
  }
}

/** Reads the run's rows into a stored result and ends the execution with it. */
async function storeRun(ctx: ExecutionContext, { execution }: store.ClaimedExecution, stream: RunStream, startedAt: number, sourceIds?: number[]): Promise<Stored> {
  let first: FirstChunk | undefined
  try {
    first = await readFirstChunk(stream, { maxRows: ctx.maxResultRows, maxBytes: ctx.maxResultBytes, maxCellBytes: ctx.maxCellBytes })
    if (first.ended) {
      return await store.finishWithResult(ctx.sql, execution, {
        columns: stream.columns, log: stream.log, rows: await encodeChunk(first.pieces), rowCount: first.rowCount,
        truncated: first.truncated, runtime: (performance.now() - startedAt) / 1000, sourceIds,
      })
    }
    const rest = first
    return await ctx.sql.begin(async (tx) => {
      const stored = await storeRest(tx, {
        orgId: execution.org_id, dataSourceId: execution.data_source_id, queryHash: execution.query_hash, queryText: execution.query_text,
        columns: stream.columns, log: stream.log, sourceIds,
      }, rest, { startedAt, log: stream.log })
      return { resultId: stored.id, queryIds: await store.markDone(tx, execution, stored.id) }
    })
  } catch (error) {
    // the rows were not (all) read: release the engine's cursor and connection
    await (first?.iterator ?? stream.batches[Symbol.asyncIterator]()).return?.(undefined)
    throw error
  }
}
