import { apiKeyHash, storedApiKey, generateApiKey } from '../credentials/index.ts'
import type { Deps } from '../deps.ts'
import { BadRequest, NotFound } from '../errors.ts'
import { scheduleChanged } from '../schedules/index.ts'
import { audited } from '../events/index.ts'
import { setFavorite as setObjectFavorite } from '../favorites/index.ts'
import { allOf, queryKeyOpens, requireRight } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { usersByIds, type UserRow } from '../users/index.ts'
import { isPastEnd } from '../shared/list/params.ts'
import { listTexts } from '../shared/list/texts.ts'
import { checkDropdownQueries, getAccessibleQuery, listViewer, queryRights, requireAllowed, sourceForQuery, viewerOf } from './access.ts'
import { parseCreateBody } from './body.ts'
import { queryDetails, sharedQueryDetails, withListedApiKey } from './details.ts'
import { savedQueryHash } from './hash.ts'
import { findPage, findRecent, parseListParams, tagCounts, type QueryListKind, type QueryListRow } from './list-store.ts'
import type { QueryDetails } from './serialize.ts'
import { queryArchived } from './archived.ts'
import * as store from './store.ts'
import type { QueryRow, Shown } from './store.ts'

export { canEditQuery, getAccessibleQuery, requireEdit } from './access.ts'
export { saveQuery } from './save.ts'
export type { QueryListKind }

/** The visualization every new query starts with (reference §3.1). */
const DEFAULT_VISUALIZATION = { type: 'TABLE', name: 'Table', description: '', options: {} }
const RECENT_LIMIT = 10
const MAX_NAME = 255

/** GET /api/queries/{id}: view_query and a source the caller's groups have (view-only is enough). */
export async function getQuery(deps: Deps, principal: Principal, id: number): Promise<QueryDetails> {
  requireAllowed(principal, 'view_query')
  return queryDetails(deps, principal, await getAccessibleQuery(deps, principal, id))
}

/**
 * The query a request's non-user API key opens (embeds, shared results): the key's hash must be this query's,
 * compared in constant time, and the query not archived; anything else is 404, so keys cannot be probed query by query.
 */
export async function queryForApiKey(deps: Deps, queryId: number, apiKey: string): Promise<QueryRow> {
  const row = await store.findById(deps.sql, queryId)
  if (!row || !queryKeyOpens(row, apiKeyHash(apiKey))) throw new NotFound()
  return row
}

/** GET /api/queries/{id} with the query's own API key: read-only. */
export async function getQueryByApiKey(deps: Deps, queryId: number, apiKey: string): Promise<QueryDetails> {
  return sharedQueryDetails(deps, await queryForApiKey(deps, queryId, apiKey))
}

/**
 * POST /api/queries: create_query and full access to the source. Every new query is a draft with a table
 * visualization, shows the newest stored result of its text at once, and starts its version history.
 */
export async function createQuery(deps: Deps, principal: Principal, body: unknown): Promise<QueryDetails> {
  requireAllowed(principal, 'create_query')
  const input = parseCreateBody(body)
  const ds = await sourceForQuery(deps, principal, input.data_source_id)
  if (input.schedule) requireAllowed(principal, 'schedule_query')
  await checkDropdownQueries(deps, principal, input.options.parameters)
  const queryHash = savedQueryHash(input.query, input.options, ds.type)
  const id = await audited<number>(deps.sql, principal, (created) => ({ action: 'create', objectType: 'query', objectId: created }), async (tx) => {
    const id = await store.insertQuery(tx, {
      ...input, orgId: principal.orgId, userId: principal.id, apiKey: storedApiKey(deps.secretKey, generateApiKey()), query_hash: queryHash, is_draft: true,
      latest_query_data_id: await store.newestResultId(tx, principal.orgId, ds.id, queryHash),
    })
    await store.insertVisualization(tx, id, DEFAULT_VISUALIZATION)
    await store.insertVersion(tx, id, principal.id)
    if (input.schedule) await scheduleChanged(tx, id)
    return id
  })
  return queryDetails(deps, principal, await getAccessibleQuery(deps, principal, id))
}

/**
 * POST /api/queries/{id}/fork: edit_query and full access to the source. The copy is the caller's draft, with the
 * same text, options, tags, description, source, result and a copy of every visualization (reference §3.1).
 */
export async function forkQuery(deps: Deps, principal: Principal, id: number): Promise<QueryDetails> {
  const original = await getAccessibleQuery(deps, principal, id)
  requireRight((await queryRights(deps.sql, principal, original)).fork)
  const fork = (forkId: number) => ({ action: 'fork', objectType: 'query', objectId: original.id, properties: { fork_id: forkId } })
  const forkId = await audited<number>(deps.sql, principal, fork, async (tx) => {
    const forkId = await store.insertQuery(tx, {
      orgId: principal.orgId, userId: principal.id, apiKey: storedApiKey(deps.secretKey, generateApiKey()),
      name: `Copy of (#${original.id}) ${original.name}`.slice(0, MAX_NAME),
      description: original.description, query: original.query, data_source_id: original.data_source_id,
      query_hash: savedQueryHash(original.query, original.options, original.data_source_type),
      options: original.options, tags: original.tags, schedule: null, is_draft: true,
      latest_query_data_id: original.latest_query_data_id,
    })
    await store.copyVisualizations(tx, original.id, forkId)
    await store.insertVersion(tx, forkId, principal.id)
    return forkId
  })
  return queryDetails(deps, principal, await getAccessibleQuery(deps, principal, forkId))
}

/** DELETE /api/queries/{id}: the owner or an admin archives it (idempotent). */
export async function archiveQuery(deps: Deps, principal: Principal, id: number) {
  const row = await getAccessibleQuery(deps, principal, id)
  requireRight((await queryRights(deps.sql, principal, row)).manage)
  await audited(deps.sql, principal, { action: 'archive', objectType: 'query', objectId: id }, async (tx) => {
    await store.archive(tx, id)
    await scheduleChanged(tx, id) // archived: its planned refresh is removed
    await queryArchived(deps.features, tx, { queryId: id, orgId: principal.orgId }) // alerts, widgets: what is built on the query
  })
}

/** POST/DELETE /api/queries/{id}/favorite: anyone who can see the query; starring twice is starring once. */
export async function setFavorite(deps: Deps, principal: Principal, id: number, favorite: boolean) {
  await getAccessibleQuery(deps, principal, id)
  await setObjectFavorite(deps, principal, 'queries', id, favorite)
}

/** POST /api/queries/{id}/regenerate_api_key: owner or admin who may edit the query; the old key stops working at once. */
export async function regenerateQueryApiKey(deps: Deps, principal: Principal, id: number): Promise<QueryDetails> {
  const row = await getAccessibleQuery(deps, principal, id)
  requireAllowed(principal, 'edit_query')
  const rights = await queryRights(deps.sql, principal, row)
  // an owner left with view-only access to the source may not publish its data under a new key (decision 0025)
  requireRight(allOf(rights.manage, rights.holdApiKey))
  await audited(deps.sql, principal, { action: 'regenerate_api_key', objectType: 'query', objectId: id }, (tx) =>
    store.setApiKey(tx, id, storedApiKey(deps.secretKey, generateApiKey())))
  return queryDetails(deps, principal, await getAccessibleQuery(deps, principal, id))
}

export interface QueryPage {
  count: number
  page: number
  page_size: number
  rows: Shown<QueryListRow>[]
  users: Map<number, UserRow>
}

/** GET /api/queries, /my, /favorites, /archive: one page, searched, filtered by tags, ordered (reference §3.3). */
export async function listQueries(
  deps: Deps, principal: Principal, kind: QueryListKind, query: Record<string, string | undefined>, tags: string[],
): Promise<QueryPage> {
  requireAllowed(principal, 'view_query')
  const params = parseListParams(query, tags)
  const { count, rows } = await findPage(deps.sql, await listViewer(deps.sql, principal), kind, params)
  if (isPastEnd(count, params.page, params.pageSize)) throw new BadRequest(listTexts.pageOutOfRange)
  const users = await usersByIds(deps.sql, principal.orgId, rows.map((r) => r.user_id))
  return { count, page: params.page, page_size: params.pageSize, rows: rows.map((r) => withListedApiKey(deps, principal, r)), users }
}

/** GET /api/queries/recent: the caller's ten most recently changed queries, drafts included. */
export async function recentQueries(deps: Deps, principal: Principal): Promise<{ rows: Shown<QueryListRow>[]; users: Map<number, UserRow> }> {
  requireAllowed(principal, 'view_query')
  const rows = await findRecent(deps.sql, viewerOf(principal), RECENT_LIMIT)
  return { rows: rows.map((r) => withListedApiKey(deps, principal, r)), users: await usersByIds(deps.sql, principal.orgId, [principal.id]) }
}

/** GET /api/queries/tags: tags of the queries the caller sees, with counts. */
export async function queryTags(deps: Deps, principal: Principal) {
  requireAllowed(principal, 'view_query')
  return tagCounts(deps.sql, await listViewer(deps.sql, principal))
}
