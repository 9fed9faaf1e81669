import crypto from 'node:crypto'
import type { Sql } from '../../src/db/index.ts'

/**
 * A PostgreSQL advisory lock the test holds, and query text that waits for it: a query that runs until the test lets
 * it go, so "it is still running" is a fact rather than a guess about how long pg_sleep lasts on a busy machine.
 */
export interface HeldLock {
  /** `select <columns>` that first waits for the lock (held only for its statement: nothing leaks to the next run). */
  query(columns: string): string
  release(): Promise<void>
}

export async function holdLock(sql: Sql): Promise<HeldLock> {
  const key = crypto.randomInt(1, 2 ** 31)
  const holder = await sql.reserve()
  await holder`select pg_advisory_lock(${key})`
  let released = false
  return {
    query: (columns) => `select ${columns} from (select pg_advisory_xact_lock_shared(${key})) as held_by_the_test`,
    release: async () => {
      if (released) return
      released = true
      await holder`select pg_advisory_unlock(${key})`
      holder.release()
    },
  }
}
