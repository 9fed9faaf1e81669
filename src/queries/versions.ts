import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import type { Principal } from '../permissions/index.ts'
import { usersByIds, type UserRow } from '../users/index.ts'
import { getAccessibleQuery, requireAllowed, requireEdit } from './access.ts'
import { parseSaveBody } from './body.ts'
import { applySave } from './save.ts'
import type { QueryDetails } from './serialize.ts'
import * as store from './store.ts'
import type { QueryVersionRow } from './store.ts'

/** GET /api/queries/{id}/versions: every saved state, newest first, for anyone who may read the query. */
export async function listQueryVersions(
  deps: Deps, principal: Principal, id: number,
): Promise<{ rows: QueryVersionRow[]; users: Map<number, UserRow> }> {
  requireAllowed(principal, 'view_query')
  await getAccessibleQuery(deps, principal, id)
  const rows = await store.listVersions(deps.sql, id)
  return { rows, users: await usersByIds(deps.sql, principal.orgId, rows.map((r) => r.user_id)) }
}

/**
 * POST /api/queries/{id}/versions/{version}/restore: the old state becomes a NEW version (history is never
 * rewritten), under the same rules as a save; the body may carry `version` for the 409 check. A version whose
 * source has since been deleted restores its text onto the current source.
 */
export async function restoreQueryVersion(deps: Deps, principal: Principal, id: number, version: number, body: unknown): Promise<QueryDetails> {
  const { version: expected } = parseSaveBody(body)
  const row = await getAccessibleQuery(deps, principal, id)
  await requireEdit(deps.sql, principal, row)
  const old = await store.findVersion(deps.sql, id, version)
  if (!old) throw new NotFound('No such version of this query.')
  const sourceStillThere = old.data_source_id !== null && (await store.dataSourceExists(deps.sql, principal.orgId, old.data_source_id))
  return applySave(deps, principal, row, {
    name: old.name,
    description: old.description,
    query: old.query,
    data_source_id: sourceStillThere ? old.data_source_id! : undefined,
    options: old.options,
    tags: old.tags,
    schedule: old.schedule,
    version: expected,
  }, { action: 'restore', properties: { restored_version: version } })
}
