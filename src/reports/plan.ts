import type { Sql } from '../db/index.ts'
import { log } from '../log.ts'
import { LATE_AFTER_MS } from './limits.ts'
import { nextSendAt } from './schedule.ts'
import { insertSend, lockDueSubscriptions, moveNextSend } from './send-store.ts'

/** How many due reports one planning transaction takes; the rest wait for the next (queued at once when there are more). */
const PLAN_BATCH = 200

/**
 * Every minute (graphile-worker's cron, one run per tick across workers): each due report gets one send and its job,
 * and its next due time, in one transaction with the report locked (SKIP LOCKED). A due time is therefore claimed
 * once however many workers plan at once, and a send row is unique per due time besides. A report whose time passed
 * while no worker ran (more than LATE_AFTER_MS ago) is sent once, marked late, and its next time counts from now:
 * the times it missed are not sent one after the other.
 */
export async function planDueReports(sql: Sql, now = new Date()): Promise<number> {
  let planned = 0
  for (;;) {
    const count = await sql.begin(async (tx) => {
      const due = await lockDueSubscriptions(tx, now, PLAN_BATCH)
      for (const s of due) {
        const dueAt = s.next_send_at as Date
        await moveNextSend(tx, s.id, nextSendAt(s.schedule, now, dueAt))
        await insertSend(tx, { subscriptionId: Number(s.id), dueAt, late: now.getTime() - dueAt.getTime() > LATE_AFTER_MS, previewUserId: null })
      }
      return due.length
    })
    planned += count
    if (count < PLAN_BATCH) break
  }
  if (planned) log.info('reports planned', { planned })
  return planned
}

/** A send asked for by hand (`POST api/subscriptions/{id}/send`): to every recipient, or to the caller alone. */
export async function planSendNow(sql: Sql, subscriptionId: number, previewUserId: number | null): Promise<number> {
  return (await insertSend(sql, { subscriptionId, dueAt: null, late: false, previewUserId })) as number
}
