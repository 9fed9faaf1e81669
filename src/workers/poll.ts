import type { Deps } from '../deps.ts'
import * as store from '../executions/index.ts'
import type { ExecutionRow } from '../executions/index.ts'
import { isFinished, JobStatus } from '../shared/job-status.ts'
import { recoverForPoll, recoveryMessages } from './recovery.ts'
import { liveWorkerCount } from './store.ts'

/* Polls of an execution from the web: they wait briefly for its end and, when its worker has gone silent, recover it
 * (src/workers/recovery.ts). Kept with the workers, which call into executions, never the reverse. */

/** An execution as a poll answers it: `waiting_reason` says why one that waits may wait long (no worker). */
export type PolledExecution = ExecutionRow & { waiting_reason?: string }

/**
 * An execution the caller may see (anyone of the organization holding its random id: it is the capability), as a
 * poll sees it (see `polled`).
 */
export async function pollExecution(deps: Deps, orgId: number, id: string): Promise<PolledExecution | undefined> {
  return polled(deps, id, () => store.findPolled(deps.sql, { id, orgId }, webSilenceSeconds(deps)))
}

/**
 * One still waiting or running is given the same brief wait as a run request: a poll that comes while it ends
 * answers at once with the end, and a burst of pollers asks half as often. One that has not changed for as long as a
 * worker may stay silent is looked at first (see `lookAtQuiet`).
 */
async function polled(deps: Deps, id: string, read: () => Promise<store.PolledRow | undefined>): Promise<PolledExecution | undefined> {
  // listening before the first read: an end between the two cannot be missed, and needs no second read
  const waiter = deps.executionsDone.watch(id)
  try {
    const first = await read()
    const now: PolledExecution | undefined = first?.quiet ? await lookAtQuiet(deps, first, read) : first
    if (!now || isFinished(now.status) || now.waiting_reason || deps.config.executionWaitMs <= 0) return now
    const ended = await waiter.wait(deps.config.executionWaitMs, async () => {
      const row = await read()
      return row && isFinished(row.status) ? row : undefined
    }, false)
    return ended ?? (await read()) ?? now
  } finally {
    waiter.stop()
  }
}

/**
 * How long a poll lets an execution go unchanged, and workers silent, before it looks for itself: twice the time
 * after which a worker counts as dead, so live workers (which recover a dead one's executions as soon as it counts as
 * dead) and one just starting up come first.
 */
const webSilenceSeconds = (deps: Deps) => 2 * deps.config.workerDeadAfterSeconds

/**
 * A running execution whose worker is gone is recovered here, so a poller sees an end even when no worker is left to
 * recover it (src/workers/recovery.ts). A waiting one stays queued, and runs once a worker starts; while none is
 * running, the poll says so (`waiting_reason`), so the browser need not wait on in silence.
 */
async function lookAtQuiet(deps: Deps, row: store.PolledRow, read: () => Promise<store.PolledRow | undefined>): Promise<PolledExecution | undefined> {
  const seconds = webSilenceSeconds(deps)
  if (row.status === JobStatus.Started) {
    await recoverForPoll({ sql: deps.sql, secretKey: deps.secretKey, deadAfterSeconds: seconds }, row.id, deps.config.executionWaitMs)
    return read()
  }
  if ((await liveWorkerCount(deps.sql, seconds)) > 0) return row
  return { ...row, waiting_reason: recoveryMessages.waitingForWorker }
}

/** A run of a saved query, polled by id without signing in (public dashboards): the random id is the capability. */
export async function getQueryExecution(deps: Deps, queryId: number, id: string): Promise<PolledExecution | undefined> {
  return polled(deps, id, () => store.findPolled(deps.sql, { id, queryId }, webSilenceSeconds(deps)))
}
