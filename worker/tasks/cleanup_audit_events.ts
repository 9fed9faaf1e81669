import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { deleteOldAuditEvents } from '../../src/audit/index.ts'
import { log } from '../../src/log.ts'
import { DEFAULT_SETTINGS } from '../../src/settings/index.ts'

/**
 * Hourly: what Sightline recorded itself goes once older than the organization's `audit_log_retention_days`
 * (0 keeps it forever), batch by batch, so no statement holds the table long.
 */
export const cleanupAuditEvents = (sql: Sql): Task => async () => {
  const days = DEFAULT_SETTINGS.audit_log_retention_days
  let removed = 0
  for (let batch = await deleteOldAuditEvents(sql, days); batch > 0; batch = await deleteOldAuditEvents(sql, days)) removed += batch
  if (removed) log.info('old audit events removed', { removed })
}
