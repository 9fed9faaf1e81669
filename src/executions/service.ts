import { randomUUID } from 'node:crypto'
import type { CoreDeps, Deps } from '../deps.ts'
import { withAsyncCommit, type Db, type Sql } from '../db/index.ts'
import { getAccessible, runnerFor } from '../data-sources/index.ts'
import type { DataSourceRow } from '../data-sources/index.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { eventProperties, recordAudit, recordEvent } from '../events/index.ts'
import { mayCancel } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { userMayReadSourcesOf } from './result-readers.ts'
import { findFresh, resultOfExecution, type ResultRow } from '../results/index.ts'
import { applyAutoLimit } from '../runners/index.ts'
import { JobStatus } from '../shared/job-status.ts'
import { EMPTY_QUERY_MESSAGE } from '../shared/parameters/index.ts'
import { queryHash } from './hash.ts'
import * as store from './store.ts'
import type { ExecutionRow } from './store.ts'

export interface ExecuteInput {
  orgId: number
  dataSource: DataSourceRow
  /** Query text with parameter values in place. */
  text: string
  queryId: number | null
  userId: number | null
  /** Seconds a cached result may be old: -1 any age, 0 always run. */
  maxAge: number
  applyAutoLimit: boolean
  scheduled?: boolean
  /** The id a new execution gets (one chosen ahead, to listen for its end); random otherwise. */
  executionId?: string
}

export type Outcome = { result: ResultRow } | { execution: ExecutionRow }

const unreadableText = 'This result reads data sources you may not read. Please run the query again later.'

/** A refusal shaped the way the browser's result loader reads it: a failed job beside the message. */
export function refusal(message: string): BadRequest {
  return new BadRequest(message, { job: { status: JobStatus.Failure, error: message } })
}

/** The text that actually runs: auto-limited where asked and the engine allows it. */
export function textToRun(ds: DataSourceRow, text: string, autoLimit: boolean): string {
  return autoLimit && runnerFor(ds.type).supportsAutoLimit ? applyAutoLimit(text) : text
}

/**
 * Answers from a fresh enough cached result, or queues an execution (joining an identical one in flight) and waits
 * briefly for it, so fast queries come back in the same response and slow ones as a job to poll.
 */
export async function execute(deps: Deps, input: ExecuteInput): Promise<Outcome> {
  // the new execution's id is chosen here, so we listen for its end before it can happen
  const id = randomUUID()
  const waiter = deps.executionsDone.watch(id)
  let queued: Outcome
  let result: ResultRow | undefined
  try {
    queued = await submit(deps, { ...input, executionId: id })
    if ('result' in queued) return queued
    const joined = queued.execution.id !== id
    result = joined
      ? await waitBriefly(deps, queued.execution.id, deps.config.executionWaitMs)
      : (await waiter.wait(deps.config.executionWaitMs, (carried) => finished(deps, id, carried), false)) ?? undefined
  } finally {
    waiter.stop()
  }
  // a run joined in flight was someone else's: its Query Results rows are theirs unless this user may read them too
  if (result && !(await userMayReadSourcesOf(deps.sql, input.userId, result))) throw refusal(unreadableText)
  if (result) return { result }
  // answer with the job as it is now (it may have started, or failed, while we waited)
  return { execution: (await store.findExecution(deps.sql, input.orgId, queued.execution.id)) ?? queued.execution }
}

/** Cache lookup and enqueue, without waiting: what scheduled refreshes use. */
export async function submit(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, input: ExecuteInput): Promise<Outcome> {
  const ds = input.dataSource
  if (ds.paused) throw refusal(`${ds.name} is paused${ds.pause_reason ? ` (${ds.pause_reason})` : ''}. Please try later.`)
  const text = textToRun(ds, input.text, input.applyAutoLimit)
  if (!text.trim()) throw refusal(EMPTY_QUERY_MESSAGE)
  const hash = queryHash(text)
  const cached = input.maxAge !== 0 ? await readableFresh(deps.sql, input.userId, await findFresh(deps.sql, ds.id, hash, input.maxAge)) : undefined
  const event = {
    orgId: input.orgId, userId: input.userId, action: 'execute_query', objectType: 'data_source', objectId: ds.id,
    properties: { cache: cached ? 'hit' : 'miss', query_id: input.queryId ?? 'adhoc', scheduled: !!input.scheduled, query_hash: hash },
  }
  if (input.maxAge === 0) {
    // nothing cached to take, before or meanwhile: queued, recorded and dispatched in one round trip
    const queued = await enqueueExecution(deps.sql, input, text, hash, eventProperties(event.properties) ?? {})
    return { execution: queued.execution }
  }
  // the execution and its audit event commit together, without waiting for the disk (decision 0012)
  let queued: { execution: ExecutionRow; joined: boolean } | undefined
  try {
    queued = await withAsyncCommit(deps.sql, async (tx) => {
      const [row] = await Promise.all([cached ? undefined : enqueueExecution(tx, input, text, hash), recordEvent(tx, event)])
      // An identical execution that ended between the look above and this insert left no row to join, only its
      // result. An insert that joined nothing came after every identical run's end had committed (a run's result
      // and its end commit together), so this second look sees that result: take it rather than run the query a
      // second time within max_age (decision 0017).
      if (row && !row.joined && input.maxAge !== 0) {
        const late = await readableFresh(tx, input.userId, await findFresh(tx, ds.id, hash, input.maxAge))
        if (late) throw new LateResult(late)
      }
      return row
    })
  } catch (error) {
    if (!(error instanceof LateResult)) throw error
    // the new execution and its 'miss' rolled back: the request was answered from a result after all
    await recordEvent(deps.sql, { ...event, properties: { ...event.properties, cache: 'hit' } })
    return { result: error.result }
  }
  if (!queued) return { result: cached! }
  // once committed, so the source's lock is never held across a request's transaction (sql/migrations/0008)
  if (!queued.joined) await store.dispatch(deps.sql, ds.id)
  return { execution: queued.execution }
}

/**
 * A cached result answers only a user who may read every source it read (a Query Results result): for anyone else
 * the query runs again as them, and says which reference they may not read.
 */
async function readableFresh(db: Db, userId: number | null, result: ResultRow | undefined): Promise<ResultRow | undefined> {
  return result && (await userMayReadSourcesOf(db, userId, result)) ? result : undefined
}

/** Thrown to undo a new execution whose identical predecessor's result arrived meanwhile (see `submit`). */
class LateResult {
  constructor(readonly result: ResultRow) {}
}

/**
 * Inserts the execution or joins the identical one in flight: within the caller's transaction, or, given the event's
 * properties, in one round trip with its event and its dispatch (`store.queueExecution`).
 */
async function enqueueExecution(db: Db, input: ExecuteInput, text: string, hash: string, eventOf?: Record<string, unknown>): Promise<{ execution: ExecutionRow; joined: boolean }> {
  const ds = input.dataSource
  for (let attempt = 0; attempt < 3; attempt++) {
    const e = {
      id: attempt === 0 && input.executionId ? input.executionId : randomUUID(),
      orgId: input.orgId, dataSourceId: ds.id, queryId: input.queryId, userId: input.userId,
      queryHash: hash, queryText: text, scheduled: !!input.scheduled,
    }
    // the event is recorded with the first attempt
    const row = eventOf
      ? await store.queueExecution(db as Sql, e, attempt === 0 ? { action: 'execute_query', properties: eventOf } : null)
      : await store.insertOrJoin(db, e)
    if (row) return row
    // the execution we collided with finished between our insert and our look-up: try again
  }
  throw new Error('Could not queue the execution')
}

/** The result, when the execution finishes within `ms`. */
export async function waitBriefly(deps: Deps, executionId: string, ms: number): Promise<ResultRow | undefined> {
  return (await deps.executionsDone.waitFor(executionId, ms, (carried) => finished(deps, executionId, carried))) ?? undefined
}

/**
 * The result once the execution is done; null when it failed (nothing more to wait for); undefined while it runs.
 * A small result comes with the notification of its end, and is not read again.
 */
async function finished(deps: Deps, executionId: string, carried?: string): Promise<ResultRow | null | undefined> {
  if (carried) return store.carriedResult(carried)
  const { status, result } = await resultOfExecution(deps.sql, executionId)
  if (status === JobStatus.Failure || (status === JobStatus.Success && !result)) return null // failed, or its result already cleaned up
  return status === JobStatus.Success ? result : undefined
}

/**
 * Cancel: the one who started it, an admin, or anyone with full access to its source (identical runs are shared,
 * so a colleague's run may be the one you wait on).
 */
export async function cancelExecution(deps: Deps, principal: Principal, id: string): Promise<ExecutionRow> {
  const row = await store.findExecution(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound('Job not found.')
  if (!(await mayCancel(principal, row, () => getAccessible(deps, principal, row.data_source_id).catch(() => undefined)))) throw new Forbidden()
  const after = await store.requestCancel(deps.sql, id)
  if (after) {
    await recordAudit(deps.sql, principal, { action: 'cancel_execution', objectType: 'data_source', objectId: row.data_source_id, properties: { execution_id: id } })
  }
  return after ?? row
}
