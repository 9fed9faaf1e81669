import type { PagePermissions, PageQuery, PageVisualization } from '../../islands/lib/query-page/types.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { allowed, getAccessibleQuery, queryDetails, queryJson, queryRights } from '../queries/index.ts'

/**
 * What both modes of a query's page (the results at /queries/{id}, the source at /queries/{id}/source) show of it:
 * the query less its API key (the Show API Key dialog fetches it when opened, so no page's HTML carries it), its
 * visualizations, and what the caller may do. Access is that of GET /api/queries/{id}: 404 when it is not theirs to see.
 */
export async function queryPageProps(deps: Deps, principal: Principal, id: number) {
  const access = await getAccessibleQuery(deps, principal, id)
  const details = await queryDetails(deps, principal, access)
  const json = queryJson(details)
  const query: PageQuery = {
    id: json.id, name: json.name, description: json.description, tags: json.tags ?? [], is_draft: json.is_draft,
    is_archived: json.is_archived, is_safe: json.is_safe, schedule: json.schedule, version: json.version,
    latest_query_data_id: json.latest_query_data_id, updated_at: json.updated_at,
    user: json.user ? { name: json.user.name, profile_image_url: json.user.profile_image_url } : null,
    options: { parameters: json.options.parameters ?? [] }, is_favorite: json.is_favorite,
  }
  const visualizations: PageVisualization[] = json.visualizations.map((v) => ({ id: v.id, type: v.type, name: v.name, options: v.options }))
  // the same decision as the API's (src/permissions/policies/query.ts); an archived query is read-only here
  const rights = details.rights ?? (await queryRights(deps.sql, principal, access))
  const live = !json.is_archived
  const permissions: PagePermissions = {
    canEdit: live && rights.edit === true,
    canSchedule: live && rights.schedule === true,
    canFork: rights.fork === true,
    canExecute: rights.execute === true,
    isOwnerOrAdmin: rights.manage === true,
    holdsApiKey: rights.holdApiKey === true,
  }
  return { query, visualizations, permissions, details }
}

/** What the caller may do with a query they are creating: theirs, so everything their permissions allow. */
export function newQueryPermissions(principal: Principal): PagePermissions {
  return {
    canEdit: true, canSchedule: allowed(principal, 'schedule_query'), canFork: allowed(principal, 'edit_query'),
    canExecute: allowed(principal, 'execute_query'), isOwnerOrAdmin: true, holdsApiKey: true,
  }
}
