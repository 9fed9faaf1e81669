import type { Db } from '../db/sql.ts'

/** A query was archived; subscribers remove what hangs off it, in the archiving transaction. */
export interface QueryArchived {
  queryId: number
  orgId: number
}

export type QueryArchivedSubscriber = (tx: Db, event: QueryArchived) => Promise<void>

/**
 * The one way features built on queries (alerts, dashboard widgets) clean up after an archive, so queries/ never
 * imports them: each feature of the process's deps is told, inside the archive's transaction, so a failure undoes
 * the archive and nothing is left half removed.
 */
export async function queryArchived(features: readonly { onQueryArchived?: QueryArchivedSubscriber }[], tx: Db, event: QueryArchived): Promise<void> {
  for (const feature of features) await feature.onQueryArchived?.(tx, event)
}
