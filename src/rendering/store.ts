import type { Db } from '../db/index.ts'

/** A query's run that failed: its error and when. */
export interface FailedRun {
  query_id: number
  query_hash: string
  error: string | null
  finished_at: Date
}

/**
 * The last failed run of each (query, text) pair, when any: a widget whose latest run for its values failed after
 * its result was stored shows that error. Finished runs are kept for days (src/executions/store.ts cleanup).
 */
export async function lastFailedRuns(db: Db, orgId: number, pairs: readonly { queryId: number; hash: string }[]): Promise<FailedRun[]> {
  if (!pairs.length) return []
  return db<FailedRun[]>`
    select distinct on (e.query_id, e.query_hash) e.query_id, e.query_hash, e.error, e.finished_at
    from executions e
    join unnest(${pairs.map((p) => p.queryId)}::bigint[], ${pairs.map((p) => p.hash)}::text[]) as w(query_id, query_hash)
      on e.query_id = w.query_id and e.query_hash = w.query_hash
    where e.org_id = ${orgId} and e.status = 4 and e.finished_at is not null
    order by e.query_id, e.query_hash, e.finished_at desc`
}
