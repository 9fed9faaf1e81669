/**
 * Stopping a PostgreSQL statement whose worker died mid-run. PostgreSQL notices a vanished client only when it next
 * talks to it, so a long statement (or a write) would go on running while the query is tried again. The run reports
 * its backend (pid and start, from pg_stat_activity) before the statement starts; recovery ends that backend from a
 * new connection and waits until it is gone, which also rolls back whatever it had not committed.
 */
import type postgres from 'postgres'
import type { StatementHandle } from './runner.ts'

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

/**
 * Ends the backend named by `handle` (pg_terminate_backend, permitted to the same role) and waits until it has left;
 * true once it is gone (or was already), false when it is still there after `ORPHAN_WAIT_MS`. Closes `sql`.
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
      if (!alive) return true
      if (Date.now() > deadline) return false
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {})
  }
}
