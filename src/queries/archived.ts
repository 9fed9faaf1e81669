import type { Db } from '../db/index.ts'

/** A query was archived; subscribers remove what hangs off it, in the archiving transaction. */
export interface QueryArchived {
  queryId: number
  orgId: number
}

export type QueryArchivedSubscriber = (tx: Db, event: QueryArchived) => Promise<void>

const subscribers = new Set<QueryArchivedSubscriber>()

/**
 * The one way features built on queries (alerts, dashboard widgets) clean up after an archive, so queries/ never
 * imports them: each subscribes once at start-up. A subscriber runs inside the archive's transaction, so a failure
 * undoes the archive and nothing is left half removed. Returns the way to unsubscribe.
 */
export function onQueryArchived(subscriber: QueryArchivedSubscriber): () => void {
  subscribers.add(subscriber)
  return () => subscribers.delete(subscriber)
}

export async function queryArchived(tx: Db, event: QueryArchived): Promise<void> {
  for (const subscriber of subscribers) await subscriber(tx, event)
}
