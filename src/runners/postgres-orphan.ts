/**
 * Stopping a PostgreSQL statement whose worker died mid-run. PostgreSQL notices a vanished client only when it next
 * talks to it, so a long statement (or a write) would go on running while the query is tried again. The run reports
 * its backend (pid and start, from pg_stat_activity) before the statement starts; recovery ends that backend from a
 * new connection and waits until it is gone, which also rolls back whatever it had not committed.
 * A gone backend may also have finished its statement and committed it before anyone looked: a statement that may
 * write therefore runs in a transaction whose id the run reports (`beginReported`), and counts as stopped only once
 * PostgreSQL says that transaction was rolled back.
 */
import type postgres from 'postgres'
import type { StatementHandle } from './runner.ts'
import { handleWrites, IN_TRANSACTION, WRITES } from './write-guard.ts'

/** How long an ended backend is given to roll back and leave pg_stat_activity. */
export const ORPHAN_WAIT_MS = 10_000
const POLL_MS = 50

/**
 * The connection's backend: its pid and start time, so that a pid the server has since given to another session is
 * never taken for it. Sent at once, so it goes ahead of the statement on the connection. Undefined where the engine
 * has no such view (some wire-compatible engines): the statement then cannot be stopped from elsewhere.
 */
export function backendOf(sql: postgres.Sql<{}>): Promise<StatementHandle | undefined> {
  return sql<{ pid: number; started: string }[]>`
    select pid, backend_start::text as started from pg_stat_activity where pid = pg_backend_pid()`
    .then(([row]) => (row ? { pid: Number(row.pid), started: row.started } : undefined), () => undefined)
}

/** How often a backend in the middle of a statement checks that its client is still there (PostgreSQL 14 on). */
const CLIENT_CHECK_MS = 1_000

/**
 * Opens the transaction a statement that may write runs in, on `sql` (one connection), and resolves with the handle
 * to report: the backend's and the transaction's id. Sent without waiting, so it goes ahead of the statement. The
 * transaction also asks the backend to check for a vanished client as it runs, so a dead worker's statement ends by
 * itself where the engine can. `commit` ends it once the answer is read.
 */
export function beginReported(sql: postgres.Sql<{}>, backend: StatementHandle) {
  const begin = sql.unsafe('begin').execute()
  const started = sql<{ xid: string }[]>`
    select txid_current()::text as xid,
           (select set_config(name, ${String(CLIENT_CHECK_MS)}, true) from pg_settings where name = 'client_connection_check_interval')`.execute()
  const handle = Promise.all([begin, started]).then(([, [row]]): StatementHandle => ({ ...backend, [WRITES]: 1, [IN_TRANSACTION]: 1, xid: row.xid }))
  handle.catch(() => {}) // the statement behind it fails the same way, and says why
  return { handle, commit: async () => { await handle; await sql.unsafe('commit') } }
}

/**
 * Ends the backend named by `handle` (pg_terminate_backend, permitted to the same role) and waits until it has left.
 * True once it is gone (or was already) and, for a statement that may write, its transaction was rolled back; false
 * when it is still there after `ORPHAN_WAIT_MS`, or may have committed. Closes `sql`.
 */
export async function endOrphanBackend(sql: postgres.Sql<{}>, handle: StatementHandle): Promise<boolean> {
  const pid = Number(handle.pid)
  const started = typeof handle.started === 'string' ? handle.started : ''
  if (!Number.isSafeInteger(pid) || !started) return false
  try {
    const deadline = Date.now() + ORPHAN_WAIT_MS
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where pid = ${pid} and backend_start = ${started}::timestamptz`
    for (;;) {
      const [alive] = await sql`select 1 from pg_stat_activity where pid = ${pid} and backend_start = ${started}::timestamptz`
      if (!alive) return !handleWrites(handle) || await rolledBack(sql, handle)
      if (Date.now() > deadline) return false
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {})
  }
}

/** Whether the transaction the handle names was rolled back: never, when it ran outside one the worker commits. */
async function rolledBack(sql: postgres.Sql<{}>, handle: StatementHandle): Promise<boolean> {
  const xid = String(handle.xid ?? '')
  if (!/^\d+$/.test(xid)) return false
  const [row] = await sql<{ status: string | null }[]>`select txid_status(${xid}::bigint) as status`
  return row?.status === 'aborted'
}
