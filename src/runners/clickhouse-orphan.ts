/**
 * Stopping ClickHouse statements whose worker died mid-run: the server goes on with a query whose HTTP client has
 * gone (unless it only reads and the server is told to stop those). Every statement of a run carries a query id
 * starting with the run's id, reported before the first is sent; recovery kills them all and waits until none is
 * left in system.processes.
 * ClickHouse has no transactions to roll back: a run that may write counts as stopped only when the kill itself
 * reports it ended the run's first statement in flight. Nothing running may mean it finished; a later statement
 * killed means the ones before it ran.
 */
import crypto from 'node:crypto'
import type { StatementHandle } from './runner.ts'
import { handleWrites } from './write-guard.ts'

/** How long the killed queries are given to leave system.processes. */
export const ORPHAN_WAIT_MS = 10_000
const POLL_MS = 50
/** How often the kill is sent again while some of the run's statements are still listed. */
const REKILL_MS = 1_000
/** A run id as `newRunId` makes them: nothing else reaches the SQL below. */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/

/** The first four groups of a random UUID: a run's statements complete it with their number. */
export const newRunId = () => crypto.randomUUID().slice(0, 23)

/** The query id of a run's `n`th statement, still UUID-shaped, the run's id first, so one condition finds them all. */
export const statementQueryId = (runId: string, n: number) => `${runId}-${n.toString(16).padStart(12, '0')}`

/**
 * Kills every query of the run `handle` names and waits until none runs; true then (for a run that may write, only
 * when the kill ended its first statement: see above), false when some are still there after `ORPHAN_WAIT_MS`.
 * `ask` sends one statement to the source and resolves with the answer's text.
 */
export async function endOrphanQueries(ask: (text: string) => Promise<string>, handle: StatementHandle): Promise<boolean> {
  const runId = String(handle.run_id ?? '')
  if (!RUN_ID.test(runId)) return false
  const ours = `startsWith(query_id, '${runId}-')`
  const killed = (await ask(`KILL QUERY WHERE ${ours} SYNC FORMAT JSONEachRow`)).split('\n').filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { kill_status?: string; query_id?: string })
  const undone = !handleWrites(handle) || endedFirstStatement(killed, runId)
  const deadline = Date.now() + ORPHAN_WAIT_MS
  let lastKill = Date.now()
  for (;;) {
    // an answer that is not a count (ClickHouse's error text while it is busy) is asked again until the deadline; a
    // source that cannot be reached fails the recovery at once, which logs why
    const left = Number((await ask(`SELECT count() FROM system.processes WHERE ${ours} FORMAT TabSeparated`)).trim() || NaN)
    if (left === 0) return undone
    if (Date.now() > deadline) return false
    // a statement the dead worker had already sent may reach the server after the kill, and a busy server may let a
    // killed one linger: asked again, without waiting for it, until none is left
    if (left > 0 && Date.now() - lastKill >= REKILL_MS) {
      lastKill = Date.now()
      await ask(`KILL QUERY WHERE ${ours} ASYNC FORMAT TabSeparated`)
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/** Whether the kill's answer says it ended the run's first statement, and no other could not be stopped. */
function endedFirstStatement(killed: { kill_status?: string; query_id?: string }[], runId: string): boolean {
  return killed.some((k) => k.query_id === statementQueryId(runId, 1)) && killed.every((k) => k.kill_status === 'finished')
}
