import os from 'node:os'
import type { Sql } from '../db/index.ts'
import { dispatch, forgetSlots, redispatchUntaken, sourcesWithWaiting } from '../executions/index.ts'
import { log } from '../log.ts'
import { recoverLostExecutions } from './recovery.ts'
import { claimDeadWorkers, removeHeartbeats, touchRunning, writeHeartbeats } from './store.ts'

/** How often a live worker says so: every 5 s, or more often when it counts as dead sooner (a third of that). */
export const HEARTBEAT_MS = 5_000
export const heartbeatMs = (deadAfterSeconds: number) => Math.min(HEARTBEAT_MS, Math.round((deadAfterSeconds * 1000) / 3))

/**
 * Keeps this process's graphile-worker pool ids (the names its jobs are locked by) alive in `worker_heartbeats`, and
 * looks for workers that stopped beating: their jobs are unlocked at once (graphile-worker would wait hours), and
 * their executions' statements stopped in the engines and the executions retried or failed (recovery.ts).
 */
export class Heartbeat {
  private ids = new Set<string>()
  private timer: ReturnType<typeof setInterval> | undefined
  /** When this process's last two beats were written (ms), to tell whether it was itself cut off from the database. */
  private beaten = { last: 0, before: 0 }

  constructor(private sql: Sql, private o: { concurrency: number; deadAfterSeconds: number; secretKey: string }) {}

  add(workerId: string) {
    this.ids.add(workerId)
    void this.beat()
  }

  start() {
    this.timer = setInterval(() => void this.tick(), heartbeatMs(this.o.deadAfterSeconds))
    this.timer.unref?.()
  }

  /** A clean stop: our rows go, so nobody mistakes us for dead. */
  async stop() {
    clearInterval(this.timer)
    const ids = [...this.ids]
    if (ids.length) await removeHeartbeats(this.sql, ids).catch(() => {})
  }

  async tick() {
    await this.beat()
    // Back from a spell without the database (longer than the bound), the others may not have beaten again yet: they
    // are not taken for dead (their statements stopped) before they have had a beat's time to say they are alive.
    const cutOff = this.beaten.before > 0 && this.beaten.last - this.beaten.before > this.o.deadAfterSeconds * 1000
    if (!cutOff) await this.recover().catch((error) => log.warn('worker recovery failed', { error: String(error) }))
    await this.admitWaiting().catch((error) => log.warn('waiting executions not let in', { error: String(error) }))
  }

  /** Lets in executions that wait although their source has room (an ending whose dispatch was lost to a crash). */
  private async admitWaiting() {
    await redispatchUntaken({ sql: this.sql })
    for (const dataSourceId of await sourcesWithWaiting(this.sql)) await dispatch(this.sql, dataSourceId)
  }

  private async beat() {
    const ids = [...this.ids]
    if (!ids.length) return
    await writeHeartbeats(this.sql, ids, { hostname: os.hostname(), pid: process.pid, concurrency: this.o.concurrency })
      .then(() => (this.beaten = { last: Date.now(), before: this.beaten.last }))
      .catch((error) => log.warn('heartbeat not written', { error: String(error) }))
    // what it runs is alive too, for pollers that judge a long run by its updated_at
    await touchRunning(this.sql, ids).catch((error) => log.warn('running executions not touched', { error: String(error) }))
  }

  /**
   * One process claims each dead worker (delete … returning) and unlocks its jobs; then the executions of every gone
   * worker are recovered, each once across processes (the web process recovers those it is polled about, too).
   */
  async recover(): Promise<string[]> {
    const ids = await this.sql.begin(async (tx) => {
      const dead = await claimDeadWorkers(tx, this.o.deadAfterSeconds)
      // nothing more is handed to their slots (what was handed and never taken is dispatched again by admitWaiting)
      await forgetSlots(tx, dead)
      return dead
    })
    const outcome = await recoverLostExecutions({ sql: this.sql, secretKey: this.o.secretKey, deadAfterSeconds: this.o.deadAfterSeconds, byWorker: true })
    if (ids.length || outcome.retried || outcome.failed) log.warn('recovered the work of stopped workers', { workers: ids, ...outcome })
    return ids
  }
}
