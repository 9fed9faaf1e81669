/**
 * Stopping a MySQL/MariaDB statement whose worker died mid-run: the server may not notice the vanished client until
 * the statement ends, so recovery kills the run's connection (its id, reported before the statement started) and
 * waits until it has left the process list, which also rolls back whatever it had not committed.
 * A connection already gone, or idle, may have finished its statement and committed it: a statement that may write
 * counts as stopped only when the kill ended it while it ran, inside the transaction its worker never committed.
 */
import type mysql from 'mysql2'
import type { StatementHandle } from './runner.ts'
import { handleInTransaction, handleWrites } from './write-guard.ts'

/** How long a killed connection is given to roll back and leave the process list. */
export const ORPHAN_WAIT_MS = 10_000
const POLL_MS = 50
/** ER_NO_SUCH_THREAD: the connection is already gone. */
const NO_SUCH_THREAD = 1094

const ask = <T>(conn: mysql.Connection, sql: string, values: unknown[] = []) =>
  new Promise<T>((resolve, reject) => conn.query({ sql, values, rowsAsArray: true }, (err, rows) => (err ? reject(err) : resolve(rows as T))))

/**
 * Kills the connection `handle` names, over `conn` (a new connection as the same user, who may kill its own), and
 * waits until it is gone. True then, for a statement that may write only when the kill ended it in the middle of
 * its transaction; false when it is still there after `ORPHAN_WAIT_MS`. Destroys `conn`.
 * Connection ids only grow until the server restarts, and a restart has ended the orphan anyway.
 */
export async function endOrphanConnection(conn: mysql.Connection, handle: StatementHandle): Promise<boolean> {
  const id = Number(handle.thread_id)
  if (!Number.isSafeInteger(id) || id <= 0) {
    conn.destroy()
    return false
  }
  try {
    // read before the kill: what it was doing as it was ended (its worker, dead, sends nothing more)
    const [[command, info] = []] = await ask<[string, string | null][]>(conn, 'select command, info from information_schema.processlist where id = ?', [id])
    const endsActive = command === 'Query' && !/^\s*commit\b/i.test(info ?? '')
    const undone = !handleWrites(handle) || (handleInTransaction(handle) && endsActive)
    await ask(conn, `KILL CONNECTION ${id}`).catch((e: { errno?: number }) => {
      if (e?.errno !== NO_SUCH_THREAD) throw e
    })
    const deadline = Date.now() + ORPHAN_WAIT_MS
    for (;;) {
      const [[left]] = await ask<[number][]>(conn, 'select count(*) from information_schema.processlist where id = ?', [id])
      if (Number(left) === 0) return undone
      if (Date.now() > deadline) return false
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  } finally {
    conn.destroy()
  }
}
