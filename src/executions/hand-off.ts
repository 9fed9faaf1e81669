import { log } from '../log.ts'
import { runExecution, type ExecutionContext } from './run.ts'
import * as store from './store.ts'

/** Where a dispatch hands an execution to an idle slot: `<worker id> <slot> <execution id>` (sql/migrations/0048). */
export const READY_CHANNEL = 'sightline_execution_ready'

/** How long an execution handed to a slot may stay untaken before the heartbeat dispatches it again. */
export const HAND_OFF_SECONDS = 10

/**
 * Slots of a worker that listen for executions handed to them at dispatch, so a new execution starts without a
 * job to fetch and complete: the claim, the run and the store are all a short run costs here. The job queue keeps
 * what waits (no slot free), and a slot's run goes on with the executions waiting behind it, as a job's does.
 */
export class HandOffSlots {
  private running = new Set<Promise<void>>()
  private unlisten: (() => Promise<void>) | undefined
  private stopping = new AbortController()

  constructor(private ctx: ExecutionContext, readonly workerId: string, private slots: number) {}

  async start() {
    const { unlisten } = await this.ctx.sql.listen(READY_CHANNEL, (payload) => this.heard(payload))
    this.unlisten = unlisten
    await store.offerSlots(this.ctx.sql, this.workerId, Array.from({ length: this.slots }, (_, i) => i))
  }

  /** No more hand-offs: the slots are withdrawn, what was handed but not taken goes back to waiting, runs end. */
  async stop() {
    this.stopping.abort()
    await this.unlisten?.().catch(() => {})
    await store.forgetSlots(this.ctx.sql, [this.workerId]).catch(() => {})
    const sources = await store.takeBackHandOffs(this.ctx.sql, { workerId: this.workerId }).catch(() => [])
    for (const id of sources) await store.dispatch(this.ctx.sql, id).catch(() => {})
    await Promise.all(this.running)
  }

  private heard(payload: string) {
    const [workerId, slot, executionId] = payload.split(' ')
    if (workerId !== this.workerId || this.stopping.signal.aborted) return
    const run: Promise<void> = this.run(Number(slot), executionId).finally(() => this.running.delete(run))
    this.running.add(run)
  }

  private async run(slot: number, executionId: string) {
    let offered = false
    try {
      offered = (await runExecution(this.ctx, executionId, this.workerId, this.stopping.signal, slot)).slotOffered
    } catch (error) {
      // the execution is recovered as any whose run broke off (src/workers)
      log.error('a handed execution failed to run', { execution: executionId, error: error instanceof Error ? error.stack : String(error) })
    } finally {
      // a run that found nothing waiting after it offered its slot again as it looked
      if (!offered && !this.stopping.signal.aborted) {
        await store.offerSlots(this.ctx.sql, this.workerId, [slot]).catch((error) => log.warn('a slot was not offered again', { error: String(error) }))
      }
    }
  }
}

/** Executions handed to a slot and never taken, waiting again and dispatched (the heartbeat's sweep). */
export async function redispatchUntaken(ctx: Pick<ExecutionContext, 'sql'>): Promise<void> {
  for (const id of await store.takeBackHandOffs(ctx.sql, { seconds: HAND_OFF_SECONDS })) await store.dispatch(ctx.sql, id)
}
