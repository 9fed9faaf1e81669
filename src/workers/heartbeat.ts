import os from 'node:os'
import type { Sql } from '../db/sql.ts'
import { EXECUTION_ATTEMPTS } from '../executions/service.ts'
import { dispatch, recoverFromDeadWorkers, sourcesWithWaiting } from '../executions/store.ts'
import { log } from '../log.ts'

/** How often a live worker says so. */
export const HEARTBEAT_MS = 5_000

/**
 * Keeps this process's graphile-worker pool ids (the names its jobs are locked by) alive in `worker_heartbeats`, and looks for workers that stopped
 * beating: their jobs are unlocked at once (graphile-worker would wait hours) and their executions retried or failed.
 */
export class Heartbeat {
  private ids = new Set<string>()
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(private sql: Sql, private o: { concurrency: number; deadAfterSeconds: number }) {}

  add(workerId: string) {
    this.ids.add(workerId)
    void this.beat()
  }

  start() {
    this.timer = setInterval(() => void this.tick(), HEARTBEAT_MS)
    this.timer.unref?.()
  }

  /** A clean stop: our rows go, so nobody mistakes us for dead. */
  async stop() {
    clearInterval(this.timer)
    const ids = [...this.ids]
    if (ids.length) await this.sql`delete from worker_heartbeats where worker_id = any(${ids})`.catch(() => {})
  }

  async tick() {
    await this.beat()
    await this.recover().catch((error) => log.warn('worker recovery failed', { error: String(error) }))
    await this.admitWaiting().catch((error) => log.warn('waiting executions not let in', { error: String(error) }))
  }

  /** Lets in executions that wait although their source has room (an ending whose dispatch was lost to a crash). */
  private async admitWaiting() {
    for (const dataSourceId of await sourcesWithWaiting(this.sql)) await dispatch(this.sql, dataSourceId)
  }

  private async beat() {
    const ids = [...this.ids]
    if (!ids.length) return
    await this.sql`
      insert into worker_heartbeats (worker_id, hostname, pid, concurrency)
      select id, ${os.hostname()}, ${process.pid}, ${this.o.concurrency} from unnest(${ids}::text[]) as id
      on conflict (worker_id) do update set last_seen_at = now()`
      .catch((error) => log.warn('heartbeat not written', { error: String(error) }))
  }

  /** One process claims each dead worker (delete … returning), so recovery happens once. */
  async recover(): Promise<string[]> {
    return this.sql.begin(async (tx) => {
      const dead = await tx<{ worker_id: string }[]>`
        delete from worker_heartbeats
         where last_seen_at < now() - make_interval(secs => ${this.o.deadAfterSeconds}::int)
        returning worker_id`
      const ids = dead.map((d) => d.worker_id)
      if (!ids.length) return ids
      await tx`select graphile_worker.force_unlock_workers(${ids}::text[])`
      const outcome = await recoverFromDeadWorkers(tx, ids, EXECUTION_ATTEMPTS)
      log.warn('recovered the work of stopped workers', { workers: ids, ...outcome })
      return ids
    })
  }
}
