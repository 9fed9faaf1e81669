import { findDataSource } from '../data-sources/index.ts'
import type { Deps } from '../deps.ts'
import { Forbidden, NotFound, Unauthorized } from '../errors.ts'
import { recordEvent } from '../events/index.ts'
import { allowed } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { NO_RESULT, openResult, readableResult } from '../results/index.ts'
import type { ResultRow } from '../results/index.ts'
import { isSafe } from '../shared/parameters/index.ts'
import { dropdownOptions, type DropdownOption, fillParameters, execute, refusal, submit, type Outcome, queryRanResult, referenceTexts } from '../executions/index.ts'
import { RESULTS_TYPE } from '../runners/index.ts'
import { getAccessibleQuery, queryForApiKey } from './service.ts'
import { openByObjectKey, type OpenedByObjectKey } from './object-keys.ts'
import type { QueryRow } from './store.ts'

/** A run of a saved query: new parameter values, how old a cached result may be (-1: any), and an auto-limit override. */
export interface SavedRunInput {
  parameters: Record<string, unknown>
  maxAge: number
  applyAutoLimit?: boolean
}

/** Who asks about a saved query: a signed-in user (or user key), or the query's own API key (embeds, shares). */
export type SavedCaller = { principal: Principal } | { queryKey: string }

export const unsafeTexts = {
  whenShared: 'This query contains potentially unsafe parameters and cannot be executed on a shared dashboard or an embedded visualization.',
  onViewOnly: 'This query contains potentially unsafe parameters and cannot be executed with read-only access to this data source.',
  noPermission: 'You do not have permission to run queries with this data source.',
  detached: 'This query is detached from any data source. Please select a different query.',
}

interface OpenedQuery {
  query: QueryRow
  viewOnly: boolean
  principal: Principal | null
  /** Opened by another object's key (a shared dashboard's token), not the query's own: its runs share results. */
  byObjectKey?: OpenedByObjectKey
}

/**
 * A Query Results query runs and reads as a user, whose rights decide which referenced queries it may read: a key is
 * no user, so it never opens one.
 */
export function keyMayOpen<Q extends QueryRow>(query: Q): Q {
  if (query.data_source_type === RESULTS_TYPE) throw new Forbidden(referenceTexts.noUser)
  return query
}

/** The query as this caller may see it; a query key opens only its own query, read-only. */
async function openQuery(deps: Deps, caller: SavedCaller, queryId: number): Promise<OpenedQuery> {
  if ('principal' in caller) {
    const row = await getAccessibleQuery(deps, caller.principal, queryId)
    return { query: row, viewOnly: row.view_only, principal: caller.principal }
  }
  // a key that is not the query's own may be another object's that shows it: a shared dashboard's token (object-keys.ts)
  const own = await queryForApiKey(deps, queryId, caller.queryKey).catch((error) => {
    if (error instanceof NotFound) return null
    throw error
  })
  if (own) return { query: keyMayOpen(own), viewOnly: true, principal: null }
  const byObjectKey = await openByObjectKey(deps, queryId, caller.queryKey)
  if (!byObjectKey) throw new NotFound()
  keyMayOpen(byObjectKey.query)
  return { query: byObjectKey.query, viewOnly: true, principal: null, byObjectKey }
}

/**
 * `POST api/queries/{id}/results`. A safe query (no text parameters: every value is checked by type) may be run with
 * new values by anyone who can see it, a view-only member or the query's key included; an unsafe one needs full
 * access to the source and the execute permission (reference §4.1).
 */
export async function runSaved(deps: Deps, caller: SavedCaller, queryId: number, input: SavedRunInput): Promise<Outcome> {
  const { query, viewOnly, principal, byObjectKey } = await openQuery(deps, caller, queryId)
  if (principal && !allowed(principal, 'view_query')) throw new Forbidden()
  // stored JSON, checked value by value when applied
  const defs = query.options.parameters ?? []
  if (!isSafe(defs, query.query)) {
    // a shared dashboard runs safe queries only, whatever the embed setting says
    if (byObjectKey) throw new Forbidden(unsafeTexts.whenShared)
    // SIGHTLINE_ALLOW_PARAMETERS_IN_EMBEDS (deprecated): the query's key may run any values, as embeds once could
    if (!principal) {
      if (!deps.config.allowParametersInEmbeds) throw new Forbidden(unsafeTexts.whenShared)
    } else {
      if (viewOnly) throw new Forbidden(unsafeTexts.onViewOnly)
      if (!allowed(principal, 'execute_query')) throw new Forbidden(unsafeTexts.noPermission)
    }
  }
  const ds = query.data_source_id == null ? undefined : await findDataSource(deps.sql, query.org_id, query.data_source_id)
  if (!ds) throw refusal(unsafeTexts.detached)
  const text = await fillParameters(deps, query.org_id, query.query, defs, input.parameters)
  return execute(deps, {
    orgId: query.org_id, dataSource: ds, text, queryId: query.id, userId: principal?.id ?? null,
    maxAge: byObjectKey ? byObjectKey.maxAge(input.maxAge) : input.maxAge, applyAutoLimit: input.applyAutoLimit ?? !!query.options.apply_auto_limit,
  })
}

export const refreshTexts = {
  userKeyOnly: 'Please use a user API key.',
}

/**
 * `POST api/queries/{id}/refresh?p_<name>=…` (reference §4.1, the established tool's older run call, still used by
 * its clients): the saved query run anew (`max_age` 0) with the address's values, answered with the job to poll. A
 * user (session or own key) with full access to the source only: a query's key or a share token gets 403.
 */
export async function refreshSaved(deps: Deps, caller: SavedCaller, queryId: number, values: Record<string, unknown>): Promise<Outcome> {
  if (!('principal' in caller)) {
    // a key that opens this query (its own, a share token's) is told to use a user's; any other key is nobody's
    const opens = await openQuery(deps, caller, queryId).then(() => true, (error) => error instanceof Forbidden)
    throw opens ? new Forbidden(refreshTexts.userKeyOnly) : new Unauthorized()
  }
  const { principal } = caller
  const query = await getAccessibleQuery(deps, principal, queryId)
  if (query.view_only || !allowed(principal, 'execute_query')) throw new Forbidden(unsafeTexts.noPermission)
  const ds = query.data_source_id == null ? undefined : await findDataSource(deps.sql, query.org_id, query.data_source_id)
  if (!ds) throw refusal(unsafeTexts.detached)
  const text = await fillParameters(deps, query.org_id, query.query, query.options.parameters ?? [], values)
  return submit(deps, {
    orgId: query.org_id, dataSource: ds, text, queryId: query.id, userId: principal.id, maxAge: 0,
    applyAutoLimit: !!query.options.apply_auto_limit,
  })
}

/** The query's latest result, for `GET api/queries/{id}/results.{ext}`; with the query's name for the file. */
export async function latestResultOf(deps: Deps, caller: SavedCaller, queryId: number, format: string): Promise<{ result: ResultRow; name: string; query: QueryRow }> {
  const { query } = await openQuery(deps, caller, queryId)
  if (query.latest_query_data_id == null) throw new NotFound(NO_RESULT)
  await noteKeyUse(deps, caller, query, format)
  const result = await openResult(deps, readerOf(caller), query.org_id, query.latest_query_data_id)
  return { result, name: query.name, query }
}

/**
 * A result by id in the context of a query. With the query's key it must be a result of this query (its latest, one
 * of its text, or one of its runs), so a key never reads other queries' results.
 */
export async function queryResultOf(deps: Deps, caller: SavedCaller, queryId: number, resultId: number, format: string): Promise<{ result: ResultRow; name: string }> {
  const { query } = await openQuery(deps, caller, queryId)
  if ('principal' in caller) return { result: await readableResult(deps, caller.principal, resultId), name: query.name }
  const result = await openResult(deps, null, query.org_id, resultId)
  const ours = result.id === query.latest_query_data_id || result.query_hash === query.query_hash ||
    await queryRanResult(deps.sql, query.id, resultId)
  if (!ours || result.data_source_id !== query.data_source_id) throw new NotFound(NO_RESULT)
  await noteKeyUse(deps, caller, query, format)
  return { result, name: query.name }
}

async function noteKeyUse(deps: Deps, caller: SavedCaller, query: QueryRow, format: string) {
  if ('principal' in caller) return
  await recordEvent(deps.sql, { orgId: query.org_id, userId: null, action: 'api_get', objectType: 'query', objectId: query.id, properties: { file_type: format, api_key: 'query' } })
}

/** `GET api/queries/{id}/dropdown`: the options a dropdown parameter backed by this query offers. */
export async function dropdownOf(deps: Deps, caller: SavedCaller, queryId: number): Promise<DropdownOption[]> {
  const { query } = await openQuery(deps, caller, queryId)
  return dropdownOptions(deps.sql, readerOf(caller), query.org_id, query.id)
}

/**
 * `GET api/queries/{id}/dropdowns/{dropdownId}`: a dropdown's options in the context of a query that uses it, so a
 * viewer of the query (or its key) needs no access to the dropdown's own query; unrelated ids are 404.
 */
export async function dropdownInContext(deps: Deps, caller: SavedCaller, queryId: number, dropdownQueryId: number): Promise<DropdownOption[]> {
  const { query } = await openQuery(deps, caller, queryId)
  const related = (query.options.parameters ?? []).some((p) => p.type === 'query' && Number(p.queryId) === dropdownQueryId)
  if (!related) throw new NotFound()
  return dropdownOptions(deps.sql, readerOf(caller), query.org_id, dropdownQueryId)
}

/** Who reads the results a call shows: the signed-in user, or nobody for a key (src/results/service.ts `openResult`). */
export const readerOf = (caller: SavedCaller): Principal | null => ('principal' in caller ? caller.principal : null)

/** The caller of a query-scoped call: the signed-in user, else the query key the request carried, else 401. */
export function savedCaller(principal: Principal | undefined, objectApiKey: string | undefined): SavedCaller {
  if (principal) return { principal }
  if (objectApiKey) return { queryKey: objectApiKey }
  throw new Unauthorized()
}
