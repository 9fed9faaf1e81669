import { isDeepStrictEqual } from 'node:util'
import type { Db } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import { BadRequest, Conflict } from '../errors.ts'
import { scheduleChanged } from '../schedules/index.ts'
import { recordAudit } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { checkDropdownQueries, getAccessibleQuery, requireAllowed, requireEdit, sourceForQuery } from './access.ts'
import { cleanTags, parseSaveBody, type SaveInput } from './body.ts'
import { queryDetails } from './details.ts'
import { savedQueryHash } from './hash.ts'
import type { QueryDetails } from './serialize.ts'
import * as store from './store.ts'
import type { AccessibleQueryRow, QueryOptions, QueryRow } from './store.ts'

export const saveTexts = {
  // spec 2 §8: the browser shows this and offers to overwrite
  conflict: 'It seems like the query has been modified by another user. Please copy/backup your changes and reload this page.',
  archiveByDelete: 'To archive a query, use DELETE /api/queries/{id}.',
}

/**
 * Save changes to a query (POST /api/queries/{id}): edit_query, modify rights and full access to its source; a
 * `version` other than the stored one is refused with 409. Every save is a new version.
 */
export async function saveQuery(deps: Deps, principal: Principal, id: number, body: unknown): Promise<QueryDetails> {
  const input = parseSaveBody(body)
  const row = await getAccessibleQuery(deps, principal, id)
  await requireEdit(deps.sql, principal, row)
  return applySave(deps, principal, row, input, { action: 'edit' })
}

/**
 * The one way a query's content changes (saves and restores): checks what the change needs, then, with the row
 * locked, compares versions, recomputes the hash, writes, keeps the new version and records the event.
 * The caller has already checked edit rights on `row`.
 */
export async function applySave(
  deps: Deps, principal: Principal, row: AccessibleQueryRow, input: SaveInput,
  event: { action: 'edit' | 'restore'; properties?: Record<string, unknown> },
): Promise<QueryDetails> {
  const newSource = input.data_source_id !== undefined && input.data_source_id !== row.data_source_id
    ? await sourceForQuery(deps, principal, input.data_source_id)
    : null
  if (input.schedule !== undefined && !isDeepStrictEqual(input.schedule, row.schedule)) requireAllowed(principal, 'schedule_query')
  if (input.is_archived === true && !row.is_archived) throw new BadRequest(saveTexts.archiveByDelete)
  const options = input.options as QueryOptions | undefined
  if (options) await checkDropdownQueries(deps, principal, options.parameters, row.options.parameters)

  await deps.sql.begin(async (tx) => {
    const current = await store.lockForSave(tx, row.id)
    if (input.version != null && input.version !== current.version) throw new Conflict(saveTexts.conflict)
    const dataSourceId = newSource ? newSource.id : current.data_source_id
    const text = input.query ?? current.query
    const nextOptions = options ?? current.options
    const queryHash = savedQueryHash(text, nextOptions, newSource ? newSource.type : current.data_source_type)
    const schedule = input.schedule === undefined ? current.schedule : input.schedule
    const version = await store.updateQuery(tx, row.id, {
      name: input.name ?? current.name,
      description: input.description === undefined ? current.description : input.description,
      query: text,
      query_hash: queryHash,
      data_source_id: dataSourceId,
      options: nextOptions,
      schedule,
      tags: input.tags === undefined ? current.tags : cleanTags(input.tags),
      is_draft: input.is_draft ?? current.is_draft,
      isArchived: input.is_archived ?? current.is_archived,
      latest_query_data_id: await latestResultId(tx, principal.orgId, current, input.latest_query_data_id, dataSourceId, queryHash),
      scheduleChanged: !isDeepStrictEqual(schedule, current.schedule),
      modifiedBy: principal.id,
    })
    await store.insertVersion(tx, row.id, principal.id)
    const replan = !isDeepStrictEqual(schedule, current.schedule) || dataSourceId !== current.data_source_id ||
      (input.is_archived ?? current.is_archived) !== current.is_archived
    if (replan) await scheduleChanged(tx, row.id)
    await recordAudit(tx, principal, { action: event.action, objectType: 'query', objectId: row.id, properties: { ...event.properties, version } })
  })
  return queryDetails(deps, principal, await getAccessibleQuery(deps, principal, row.id))
}

/**
 * The result a saved query shows. A result the browser names (it ran the text, perhaps with other parameter
 * values) is kept when it belongs to the query's source; a stale or foreign id is ignored rather than refused,
 * because clients send back whatever id they loaded. Otherwise a change of text or source links the newest result
 * of the new text, or none.
 */
async function latestResultId(
  db: Db, orgId: number, current: QueryRow, requested: number | null | undefined, dataSourceId: number | null, queryHash: string,
): Promise<number | null> {
  if (dataSourceId === null || requested === null) return null
  if (requested !== undefined && (await store.resultOfSource(db, orgId, requested, dataSourceId))) return requested
  if (queryHash === current.query_hash && dataSourceId === current.data_source_id) return current.latest_query_data_id
  return store.newestResultId(db, orgId, dataSourceId, queryHash)
}
