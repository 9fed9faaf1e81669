import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import type { QueryArchived, OpenedByObjectKey } from '../queries/index.ts'
import { queryForShareToken, sharedMaxAge } from './sharing.ts'
import type { Db } from '../db/index.ts'
import { deleteWidgetsOfQuery } from './widget-store.ts'

/**
 * An archived query's charts leave every dashboard (reference §7.2), in the archive's own transaction: subscribed to
 * `onQueryArchived` when the web app is built, so queries never import dashboards.
 */
export async function removeWidgetsOfArchivedQuery(tx: Db, event: QueryArchived): Promise<void> {
  await deleteWidgetsOfQuery(tx, event.queryId)
}

/**
 * A shared dashboard's token opens the queries its charts show (decision 0021): registered with `onQueryKey` when the
 * web app is built, so queries never import dashboards. Its runs take the public max_age, whatever was asked.
 */
export async function openQueryBySharedDashboard(deps: Deps, queryId: number, token: string): Promise<OpenedByObjectKey | null> {
  const query = await queryForShareToken(deps, queryId, token).catch((error) => {
    if (error instanceof NotFound) return null
    throw error
  })
  return query && { query, maxAge: (asked) => sharedMaxAge(asked, query.schedule?.interval) }
}
