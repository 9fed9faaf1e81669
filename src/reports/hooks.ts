import type { Db } from '../db/index.ts'
import type { QueryArchived } from '../queries/index.ts'
import { deleteReportsOfQuery } from './store.ts'

/**
 * An archived query takes its visualizations' reports along, in the archive's transaction, as it takes its alerts
 * (its charts leave dashboards too, so dashboard reports simply no longer show them).
 */
export async function removeReportsOfArchivedQuery(tx: Db, event: QueryArchived): Promise<void> {
  await deleteReportsOfQuery(tx, event.queryId)
}
