import { randomUUID } from 'node:crypto'
import type { Db } from '../db/index.ts'

/** One scheduled run to queue, its text final (parameters in place, auto-limited) and hashed. */
export interface ScheduledRun {
  orgId: number
  dataSourceId: number
  queryId: number
  userId: number
  queryHash: string
  queryText: string
}

/**
 * Queues many scheduled runs in one statement, each with its audit event, within the caller's transaction. A run
 * whose query already has a scheduled run in flight, or whose text is already running on its source, gets no row:
 * the same partial unique indexes that make `sightline_queue_execution` join decide here (the run in flight answers
 * every query showing that text when it ends). Returns the sources that got new executions, to dispatch once committed.
 */
export async function insertScheduled(db: Db, runs: ScheduledRun[]): Promise<number[]> {
  if (!runs.length) return []
  const rows = await db<{ data_source_id: number }[]>`
    with runs as (
      select * from unnest(${runs.map(() => randomUUID())}::uuid[], ${runs.map((r) => r.orgId)}::bigint[],
                           ${runs.map((r) => r.dataSourceId)}::bigint[], ${runs.map((r) => r.queryId)}::bigint[],
                           ${runs.map((r) => r.userId)}::bigint[], ${runs.map((r) => r.queryHash)}::text[], ${runs.map((r) => r.queryText)}::text[])
        as r(id, org_id, data_source_id, query_id, user_id, query_hash, query_text)
    ), recorded as (
      insert into events (org_id, user_id, action, object_type, object_id, additional_properties)
      select org_id, user_id, 'execute_query', 'data_source', data_source_id::text,
             jsonb_build_object('cache', 'miss', 'query_id', query_id, 'scheduled', true, 'query_hash', query_hash)
        from runs
    )
    insert into executions (id, org_id, data_source_id, query_id, user_id, query_hash, query_text, scheduled, queue)
    select id, org_id, data_source_id, query_id, user_id, query_hash, query_text, true, 'ds:' || data_source_id
      from runs
     -- in the order of the in-flight index, so two batches sharing texts wait for each other instead of deadlocking
     order by data_source_id, query_hash
    on conflict do nothing
    returning data_source_id`
  return [...new Set(rows.map((r) => Number(r.data_source_id)))]
}
