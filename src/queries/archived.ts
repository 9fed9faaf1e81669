import type { Db } from '../db/index.ts'
import type { Feature, QueryArchived } from '../deps.ts'

export type { QueryArchived } from '../deps.ts'
export type QueryArchivedSubscriber = NonNullable<Feature['onQueryArchived']>

/**
 * The one way features built on queries (alerts, dashboard widgets) clean up after an archive, so queries/ never
 * imports them: each feature of the process's deps is told, inside the archive's transaction, so a failure undoes
 * the archive and nothing is left half removed.
 */
export async function queryArchived(features: readonly Feature[], tx: Db, event: QueryArchived): Promise<void> {
  for (const feature of features) await feature.onQueryArchived?.(tx, event)
}
