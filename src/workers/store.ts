import type { DataSourceRow } from '../data-sources/index.ts'
import type { Db } from '../db/index.ts'
import type { ExecutionRow } from '../executions/index.ts'
import { JobStatus } from '../shared/job-status.ts'

/*
 * Sightline's own records of its workers: heartbeats, and the executions of workers that stopped beating.
 */

/** How many workers have beaten within `seconds`. */
export async function liveWorkerCount(db: Db, seconds: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from worker_heartbeats where last_seen_at >= now() - make_interval(secs => ${seconds}::int)`
  return row.n
}

/** A running execution is lost when its worker has not beaten for `seconds`, nor the execution changed for as long. */
function lost(db: Db, seconds: number) {
  return db`
    e.status = 2 and e.updated_at < now() - make_interval(secs => ${seconds}::int)
    and not exists (select 1 from worker_heartbeats h
                     where h.worker_id = e.worker_id and h.last_seen_at >= now() - make_interval(secs => ${seconds}::int))`
}

/** Executions whose worker is gone (see `lost`). */
export async function lostExecutionIds(db: Db, seconds: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`select e.id from executions e where ${lost(db, seconds)}`
  return rows.map((r) => r.id)
}

/** A lost execution taken by one recovery, with its source (undefined when deleted). */
export interface LostExecution {
  execution: ExecutionRow
  dataSource: DataSourceRow | undefined
}

/**
 * Takes a lost execution for the recovery `token` (its worker id from now on), so one process recovers it: a second
 * taker waits for the first's update and then finds it no longer lost. A recovery that dies in turn leaves it lost.
 * Its source's slot is released at once (undispatched while running: "worker lost"): stopping its orphaned statement
 * may take a while, and the next waiting execution need not wait for that. The caller dispatches its source.
 */
export async function claimLost(db: Db, id: string, token: string, seconds: number): Promise<LostExecution | undefined> {
  const [row] = await db<(ExecutionRow & { ds: DataSourceRow | null })[]>`
    with claimed as (
      update executions e set worker_id = ${token}, dispatched = false, updated_at = now()
       where e.id = ${id} and ${lost(db, seconds)}
      returning e.*
    )
    select claimed.*, to_jsonb(d) as ds from claimed left join data_sources d on d.id = claimed.data_source_id`
  if (!row) return undefined
  const { ds, ...execution } = row
  return { execution: execution as ExecutionRow, dataSource: ds ?? undefined }
}

/**
 * Ends the recovery `token`: the execution waits to run again (undispatched: an execution run as part of another's
 * job has no job of its own to rerun), or fails with `error`. Undefined when it ended otherwise meanwhile. The caller
 * dispatches its source, where a retry waits for a slot.
 */
export async function endRecovery(db: Db, id: string, token: string, error: string | undefined): Promise<ExecutionRow | undefined> {
  const [row] = error === undefined
    ? await db<ExecutionRow[]>`
        update executions set status = 1, dispatched = false, worker_id = null, cancel_handle = null, updated_at = now()
         where id = ${id} and status = 2 and worker_id = ${token}
        returning *`
    : await db<ExecutionRow[]>`
        update executions set status = 4, error = ${error}, finished_at = now(), updated_at = now()
         where id = ${id} and status = 2 and worker_id = ${token}
        returning *`
  if (row?.status === JobStatus.Failure) await db`select pg_notify('sightline_execution', ${id})`
  return row
}

/**
 * Running executions of these workers are marked as alive (at most once a minute each), so a poller can tell a long
 * run from a lost one by its `updated_at`.
 */
export async function touchRunning(db: Db, workerIds: string[]) {
  await db`
    update executions set updated_at = now()
     where worker_id = any(${workerIds}) and status = 2 and updated_at < now() - interval '1 minute'`
}

/** This process's workers are alive: one heartbeat row each, written or refreshed. */
export async function writeHeartbeats(db: Db, ids: string[], o: { hostname: string; pid: number; concurrency: number }) {
  await db`
    insert into worker_heartbeats (worker_id, hostname, pid, concurrency)
    select id, ${o.hostname}, ${o.pid}, ${o.concurrency} from unnest(${ids}::text[]) as id
    on conflict (worker_id) do update set last_seen_at = now()`
}

/** A clean stop: these workers' rows go, so nobody mistakes them for dead. */
export async function removeHeartbeats(db: Db, ids: string[]) {
  await db`delete from worker_heartbeats where worker_id = any(${ids})`
}

/**
 * Claims the workers silent for longer than `deadAfterSeconds` (each is claimed by one process: delete … returning)
 * and unlocks their graphile jobs; call it in a transaction.
 */
export async function claimDeadWorkers(tx: Db, deadAfterSeconds: number): Promise<string[]> {
  const dead = await tx<{ worker_id: string }[]>`
    delete from worker_heartbeats
     where last_seen_at < now() - make_interval(secs => ${deadAfterSeconds}::int)
    returning worker_id`
  const ids = dead.map((d) => d.worker_id)
  if (ids.length) await tx`select graphile_worker.force_unlock_workers(${ids}::text[])`
  return ids
}
