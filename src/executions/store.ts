import type { DataSourceRow } from '../data-sources/index.ts'
import type { ResultRow } from '../results/index.ts'
import type { Db, Sql } from '../db/index.ts'
import type { StatementHandle } from '../runners/index.ts'
import { JobStatus } from '../shared/job-status.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'

export interface ExecutionRow {
  id: string
  org_id: number
  data_source_id: number
  query_id: number | null
  user_id: number | null
  query_hash: string
  query_text: string
  scheduled: boolean
  status: JobStatus
  error: string | null
  query_result_id: number | null
  queue: string
  worker_id: string | null
  attempts: number
  cancel_requested: boolean
  /** Where its statement runs in the engine, so it can be stopped should its worker die (sql/migrations/0011). */
  cancel_handle: StatementHandle | null
  /** Given its graphile job (its source had a free slot); waiting ones without are let in as slots free up. */
  dispatched: boolean
  created_at: Date
  started_at: Date | null
  finished_at: Date | null
  updated_at: Date
}

export interface NewExecution {
  id: string
  orgId: number
  dataSourceId: number
  queryId: number | null
  userId: number | null
  queryHash: string
  queryText: string
  scheduled: boolean
}

/**
 * Inserts an execution (the caller dispatches it once committed); or returns the identical execution already in
 * flight (same source and text) and `joined`. The partial unique index decides, so two requests racing
 * each other still end up sharing one row.
 */
export async function insertOrJoin(db: Db, e: NewExecution): Promise<{ execution: ExecutionRow; joined: boolean } | undefined> {
  const [created] = await db<ExecutionRow[]>`
    select * from sightline_submit_execution(${e.id}::uuid, ${e.orgId}, ${e.dataSourceId}, ${e.queryId}, ${e.userId},
                                             ${e.queryHash}, ${e.queryText}, ${e.scheduled})`
  if (created) return { execution: created, joined: false }
  const [running] = await db<ExecutionRow[]>`
    select * from executions
     where (data_source_id = ${e.dataSourceId} and query_hash = ${e.queryHash} and status in (1, 2))
        or (${e.scheduled} and query_id = ${e.queryId} and scheduled and status in (1, 2))
     limit 1`
  return running ? { execution: running, joined: true } : undefined
}

/**
 * `insertOrJoin`, its audit event and its dispatch in one round trip: the first two in one statement
 * (sql/migrations/0048), the dispatch right behind it on the same connection, in a transaction of its own that
 * starts once the execution has committed (see sightline_dispatch_executions). Undefined as `insertOrJoin`.
 */
export async function queueExecution(sql: Sql, e: NewExecution, event: { action: string; properties: unknown } | null): Promise<{ execution: ExecutionRow; joined: boolean } | undefined> {
  const connection = await sql.reserve()
  try {
    const [[row]] = await Promise.all([
      connection<ExecutionRow[]>`
        select * from sightline_queue_execution(${e.id}::uuid, ${e.orgId}, ${e.dataSourceId}, ${e.queryId}, ${e.userId}, ${e.queryHash},
                                                ${e.queryText}, ${e.scheduled}, ${event?.action ?? null}, ${event ? connection.json(event.properties as never) : null}::jsonb)`,
      // a joined or absent execution makes this a look at the source's slots and nothing more
      connection`select sightline_dispatch_executions(${e.dataSourceId})`,
    ])
    return row && { execution: row, joined: row.id !== e.id }
  } finally {
    connection.release()
  }
}

/**
 * Gives waiting executions of a source their graphile jobs while it has free slots (its query_concurrency), in the
 * database (sql/migrations/0006): called when one is added and whenever one ends.
 */
export async function dispatch(db: Db, dataSourceId: number): Promise<number> {
  const [row] = await db<{ admitted: number }[]>`select sightline_dispatch_executions(${dataSourceId}) as admitted`
  return row.admitted
}

/** Offers idle slots of a worker, each to be handed an execution straight away (sql/migrations/0048). */
export async function offerSlots(db: Db, workerId: string, slots: number[]) {
  await db`insert into execution_slots (worker_id, slot) select ${workerId}, unnest(${slots}::int[]) on conflict do nothing`
}

/** The slots of these workers, gone (they stopped or died). */
export async function forgetSlots(db: Db, workerIds: string[]) {
  if (workerIds.length) await db`delete from execution_slots where worker_id = any(${workerIds}::text[])`
}

/**
 * Executions handed to a worker that has not taken them (it stopped, or the notification was lost) go back to
 * waiting: those of `workerId`, or any handed more than `seconds` ago. Returns their sources, to dispatch again.
 */
export async function takeBackHandOffs(db: Db, which: { workerId: string } | { seconds: number }): Promise<number[]> {
  const rows = await db<{ data_source_id: number }[]>`
    update executions set dispatched = false, worker_id = null, updated_at = now()
     where status = 1 and dispatched and worker_id is not null
       and ${'workerId' in which ? db`worker_id = ${which.workerId}` : db`updated_at < now() - make_interval(secs => ${which.seconds}::int)`}
    returning data_source_id`
  return [...new Set(rows.map((r) => r.data_source_id))]
}

/** Sources with executions waiting for a slot: the heartbeat lets them in should an ending have been missed. */
export async function sourcesWithWaiting(db: Db): Promise<number[]> {
  const rows = await db<{ data_source_id: number }[]>`
    select distinct data_source_id from executions where status = 1 and not dispatched`
  return rows.map((r) => r.data_source_id)
}

export async function findExecution(db: Db, orgId: number, id: string): Promise<ExecutionRow | undefined> {
  const [row] = await db<ExecutionRow[]>`select * from executions where id = ${id} and org_id = ${orgId}`
  return row
}

/** What a worker needs to run an execution, read as it claims it. */
export interface ClaimedExecution {
  execution: ExecutionRow
  /** Its source (undefined when deleted meanwhile). */
  dataSource: DataSourceRow | undefined
  orgTimeLimitSeconds: number
  /** Who ran it, for the annotation; null for scheduled runs of a deleted user. */
  userEmail: string | null
  /** Their name, for engines that act as the executing user (Trino's impersonation). */
  userName: string | null
}

/**
 * Moves a waiting execution to processing for this worker and reads its source, the organization's time limit and
 * the user's e-mail in the same round trip; undefined when it was cancelled or already taken.
 */
export async function claim(db: Db, id: string, workerId: string): Promise<ClaimedExecution | undefined> {
  return claimWhere(db, workerId, db`id = ${id} and status = 1`)
}

/**
 * The oldest execution of a source waiting for a slot, claimed by a worker that holds one (it just finished an
 * execution of that source), so it runs without a graphile job of its own. With `offerSlot`, a slot that finds
 * nothing waiting is offered again for hand-offs in the same statement (one round trip after each run, not two).
 */
export async function claimNextWaiting(db: Db, dataSourceId: number, workerId: string, offerSlot?: number): Promise<ClaimedExecution | undefined> {
  return claimWhere(db, workerId, db`id = (select id from next)`, db`
    next as (
      select id from executions where data_source_id = ${dataSourceId} and status = 1 and not dispatched
       order by created_at limit 1 for update skip locked
    ), offered as (
      insert into execution_slots (worker_id, slot)
      select ${workerId}, ${offerSlot ?? null}::int where ${offerSlot !== undefined} and not exists (select 1 from next)
      on conflict do nothing
    ),`)
}

async function claimWhere(db: Db, workerId: string, which: ReturnType<Db>, before = db``): Promise<ClaimedExecution | undefined> {
  const [row] = await db<(ExecutionRow & { ds: DataSourceRow | null; org_limit: number; email: string | null; user_name: string | null })[]>`
    with ${before} claimed as (
      update executions
         set status = 2, dispatched = true, worker_id = ${workerId}, started_at = now(), updated_at = now(), attempts = attempts + 1,
             cancel_handle = null
       where ${which}
      returning *
    )
    select claimed.*, to_jsonb(d) as ds, coalesce((o.settings->>'query_time_limit')::int, 0) as org_limit, u.email, u.name as user_name
      from claimed
      join organizations o on o.id = claimed.org_id
      left join data_sources d on d.id = claimed.data_source_id
      left join users u on u.id = claimed.user_id`
  if (!row) return undefined
  const { ds, org_limit, email, user_name, ...execution } = row
  return { execution: execution as ExecutionRow, dataSource: ds ?? undefined, orgTimeLimitSeconds: org_limit, userEmail: email, userName: user_name }
}

/**
 * The end of a successful run, in one statement: the execution is done, every live query showing this text on this
 * source points at the new result (reference §4.3, kept on purpose), the query's failure count is reset, and
 * waiting requests are told.
 */
/** Ends the execution with a stored result; the saved queries that now show it as their latest. */
export async function markDone(db: Db, e: Pick<ExecutionRow, 'id' | 'data_source_id' | 'query_hash' | 'query_id' | 'attempts'>, resultId: number): Promise<number[]> {
  const [row] = await db<{ query_ids: number[] }[]>`
    with ${doneAndLinked(db, e, db`${resultId}::bigint`)}
    select pg_notify('sightline_execution', ${e.id}), ${linkedQueryIds(db)} as query_ids`
  return row.query_ids.map(Number)
}

/** The ids of the queries the `linked` step gave the new result (see `doneAndLinked`). */
const linkedQueryIds = (db: Db) => db`(select coalesce(array_agg(id order by id), '{}') from linked where relinked)`

/**
 * The two steps `markDone` and `finishWithResult` share, as common table expressions `done` and `linked`: the
 * execution ends with the result `resultId` (an SQL expression), which becomes the latest result of the queries it
 * answers. Only the attempt that is running ends it: a worker taken for dead and back meanwhile leaves alone the run
 * that replaced its own.
 */
function doneAndLinked(db: Db, e: Pick<ExecutionRow, 'id' | 'data_source_id' | 'query_hash' | 'query_id' | 'attempts'>, resultId: ReturnType<Db>) {
  return db`
    done as (
      update executions set status = 3, query_result_id = ${resultId}, finished_at = clock_timestamp(), updated_at = clock_timestamp()
       where id = ${e.id} and status = 2 and attempts = ${e.attempts}
    ), linked as (
      update queries
         set latest_query_data_id = case when data_source_id = ${e.data_source_id} and query_hash = ${e.query_hash} and not is_archived
                                         then ${resultId} else latest_query_data_id end,
             schedule_failures = case when id = ${e.query_id} then 0 else schedule_failures end
       where (data_source_id = ${e.data_source_id} and query_hash = ${e.query_hash} and not is_archived)
          or (id = ${e.query_id} and schedule_failures > 0)
      returning id, (data_source_id = ${e.data_source_id} and query_hash = ${e.query_hash} and not is_archived) as relinked
    )`
}

/** How much of a notification (at most 8,000 bytes) a finished result may take: the rest is read by its id. */
const CARRIED_BYTES = 7_000

/** The result a finished execution's notification carried (see `finishWithResult`), as its readers see it. */
export function carriedResult(carried: string): ResultRow {
  const { first_chunk: chunk, retrieved_at: at, ...row } = JSON.parse(carried) as Omit<ResultRow, 'retrieved_at'> & { retrieved_at: string; first_chunk: string | null }
  return { ...row, retrieved_at: new Date(at), first_chunk: chunk == null ? null : Buffer.from(chunk, 'base64') }
}

/** A whole result, small enough to be written in the same statement that ends its execution. */
export interface WholeResult {
  columns: unknown[]
  log: string[]
  /** The rows as stored: compressed JSON (src/results/chunk-codec.ts). */
  rows: Uint8Array
  rowCount: number
  truncated: boolean
  runtime: number
  /** The sources a Query Results query read, null for other results. */
  sourceIds?: number[] | null
}

/**
 * Stores a result of one chunk and ends its execution like `markDone`, all in one statement (one round trip, atomic
 * without a transaction): the common case of a small result. Returns the result's id.
 */
export async function finishWithResult(db: Db, e: ExecutionRow, r: WholeResult): Promise<{ resultId: number; queryIds: number[] }> {
  const [row] = await db<{ id: number; query_ids: number[] }[]>`
    with result as (
      insert into query_results (org_id, data_source_id, query_hash, query_text, columns, row_count, truncated, log, runtime, source_ids)
      values (${e.org_id}, ${e.data_source_id}, ${e.query_hash}, ${e.query_text}, ${db.json(r.columns as never)}, ${r.rowCount},
              ${r.truncated}, ${db.json(r.log)}, ${r.runtime}, ${r.sourceIds ?? null}::bigint[])
      returning *
    ), chunk as (
      insert into query_result_chunks (result_id, seq, rows) select id, 0, ${r.rows} from result where ${r.rowCount} > 0
    ), ${doneAndLinked(db, e, db`(select id from result)`)}
    select id, pg_notify('sightline_execution', case when octet_length(carried) <= ${CARRIED_BYTES} then ${e.id} || ' ' || carried else ${e.id} end),
           ${linkedQueryIds(db)} as query_ids
      from result,
           lateral (select (to_jsonb(result) || jsonb_build_object('first_chunk', case when ${r.rowCount} > 0 then encode(${r.rows}, 'base64') end))::text as carried) c`
  return { resultId: Number(row.id), queryIds: row.query_ids.map(Number) }
}

/** Ends the running attempt `e` with an error (a later attempt, after a recovery, is left alone). */
export async function markFailed(db: Db, e: Pick<ExecutionRow, 'id' | 'attempts'>, error: string) {
  await db`
    with failed as (
      update executions set status = 4, error = ${error}, finished_at = now(), updated_at = now()
       where id = ${e.id} and status = 2 and attempts = ${e.attempts}
    )
    select pg_notify('sightline_execution', ${e.id})`
}

/** Where the running attempt `e`'s statement runs, for a recovery to stop it should this worker die. */
export async function recordCancelHandle(db: Db, e: Pick<ExecutionRow, 'id' | 'attempts'>, handle: StatementHandle) {
  await db`update executions set cancel_handle = ${db.json(handle)} where id = ${e.id} and status = 2 and attempts = ${e.attempts}`
}

/**
 * Asks for an execution to stop. A waiting one fails at once (its job will find nothing to do); a running one is
 * stopped by its worker, which hears the notification. Returns the row as it is after the request.
 */
export async function requestCancel(db: Db, id: string): Promise<ExecutionRow | undefined> {
  const [row] = await db<ExecutionRow[]>`
    update executions
       set cancel_requested = true, updated_at = now(),
           status = case when status = 1 then 4 else status end,
           error = case when status = 1 then 'Query cancelled by user.' else error end,
           finished_at = case when status = 1 then now() else finished_at end
     where id = ${id} and status in (1, 2)
    returning *`
  if (row) await db`select pg_notify(${row.status === JobStatus.Failure ? 'sightline_execution' : 'sightline_execution_cancel'}, ${id})`
  if (row?.status === JobStatus.Failure && row.dispatched) await dispatch(db, row.data_source_id) // its slot is free
  return row
}

/** An execution as a poll reads it, and whether it has been unfinished and unchanged for `seconds`. */
export type PolledRow = ExecutionRow & { quiet: boolean }

/** By its id and its organization, or its id and query (public dashboards). */
export async function findPolled(db: Db, which: { id: string; orgId?: number; queryId?: number }, seconds: number): Promise<PolledRow | undefined> {
  const [row] = await db<PolledRow[]>`
    select *, status in (1, 2) and updated_at < now() - make_interval(secs => ${seconds}::int) as quiet
      from executions
     where id = ${which.id} and ${which.orgId !== undefined ? db`org_id = ${which.orgId}` : db`query_id = ${which.queryId ?? null}`}`
  return row
}

/** Finished executions are kept a while for polling clients and the admin pages, then deleted. */
export async function deleteFinishedBefore(db: Db, days: number): Promise<number> {
  const rows = await db`delete from executions where status in (3, 4) and finished_at < now() - make_interval(days => ${days}::int)`
  return rows.count
}

/** A saved query's parameter definitions, which type the values of a run of its (possibly edited) text. */
export async function savedParameterDefinitions(db: Db, orgId: number, queryId: number): Promise<ParameterDefinition[]> {
  // stored JSON as the query body check let it in; values are checked one by one when applied
  const [row] = await db<{ parameters: ParameterDefinition[] | null }[]>`
    select options->'parameters' as parameters from queries where id = ${queryId} and org_id = ${orgId}`
  return Array.isArray(row?.parameters) ? row.parameters : []
}

/** Whether one of this query's executions produced this result (a query key may read its own runs' results). */
export async function queryRanResult(db: Db, queryId: number, resultId: number): Promise<boolean> {
  const [row] = await db`select 1 from executions where query_id = ${queryId} and query_result_id = ${resultId} limit 1`
  return !!row
}

/** What a `query_N` reference needs of the query it names (the queries domain sits above executions). */
export interface ReferencedQueryRow {
  id: number
  org_id: number
  data_source_id: number | null
  latest_query_data_id: number | null
  query: string
  options: { parameters?: ParameterDefinition[] } & Record<string, unknown>
}

/** The query a `query_N` reference names, archived or not (as the established tool reads it), or undefined. */
export async function findReferencedQuery(db: Db, id: number): Promise<ReferencedQueryRow | undefined> {
  const [row] = await db<ReferencedQueryRow[]>`
    select id, org_id, data_source_id, latest_query_data_id, query, options from queries where id = ${id}`
  return row
}

/** The latest stored result of a query of the organization: what a query-dropdown parameter offers. */
export async function latestResultOfQuery(db: Db, orgId: number, queryId: number) {
  const [latest] = await db<{ id: number; columns: { name: string }[]; source_ids: number[] | null }[]>`
    select r.id, r.columns, r.source_ids from queries q join query_results r on r.id = q.latest_query_data_id
     where q.id = ${queryId} and q.org_id = ${orgId}`
  return latest
}
