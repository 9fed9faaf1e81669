import type { Sql } from './sql.ts'

/**
 * State a module keeps for the life of the process (a cache, a count of recent refusals), kept apart for each
 * database it serves. A deployed process serves one database, so this is the process's state; a process serving
 * several (the tests, one database per file) never lets one database's entries answer for another's, whose ids and
 * addresses mean other things.
 */
export function perDatabase<T>(make: () => T): (sql: Sql) => T {
  const kept = new WeakMap<Sql, T>()
  return (sql) => {
    let state = kept.get(sql)
    if (state === undefined) kept.set(sql, (state = make()))
    return state
  }
}
