import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { deleteOldBrowserEvents } from '../../src/events/index.ts'
import { log } from '../../src/log.ts'

/**
 * Hourly: events browsers reported (views, runs from a page) older than SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS go,
 * batch by batch, so no statement holds the table long. Events Sightline records itself (sign-ins, changes, shares)
 * are the audit trail and stay.
 */
export const cleanupBrowserEvents = (sql: Sql, retentionDays: number): Task => async () => {
  let removed = 0
  for (let batch = await deleteOldBrowserEvents(sql, retentionDays); batch > 0; batch = await deleteOldBrowserEvents(sql, retentionDays)) removed += batch
  if (removed) log.info('old browser events removed', { removed })
}
