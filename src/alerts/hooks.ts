import type { Db } from '../db/index.ts'
import type { QueryArchived } from '../queries/index.ts'
import { deleteAlertsOfQuery } from './store.ts'

/** An archived query takes its alerts along, in the archive's transaction (spec 2 §4; the alerts feature of src/features.ts). */
export async function removeAlertsOfArchivedQuery(tx: Db, event: QueryArchived): Promise<void> {
  await deleteAlertsOfQuery(tx, event.queryId)
}
