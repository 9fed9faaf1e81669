import type { QueryArchived } from '../queries/archived.ts'
import type { Db } from '../db/sql.ts'
import { deleteWidgetsOfQuery } from './widget-store.ts'

/**
 * An archived query's charts leave every dashboard (reference §7.2), in the archive's own transaction: subscribed to
 * `onQueryArchived` when the web app is built, so queries never import dashboards.
 */
export async function removeWidgetsOfArchivedQuery(tx: Db, event: QueryArchived): Promise<void> {
  await deleteWidgetsOfQuery(tx, event.queryId)
}
