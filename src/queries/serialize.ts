import type { QueryRights } from '../permissions/index.ts'
import type { EmbeddedQueryJson, QueryBaseJson, QueryJson, QueryListItemJson, VisualizationJson } from '../shared/api/queries.ts'
import { iso } from '../shared/time.ts'
import { userJson } from '../users/index.ts'
import type { UserRow } from '../users/index.ts'
import type { QueryOptions, QueryRow, QueryVersionRow, Shown, VisualizationRow } from './store.ts'

/** Parameter types whose values are picked from a closed set or parsed (spec 1 §3); text and unknown ones are free text. */
const SAFE_PARAMETER_TYPES = new Set([
  'number', 'enum', 'query', 'date', 'datetime-local', 'datetime-with-seconds', 'date-range', 'date-range-switchable',
  'datetime-range', 'datetime-range-with-seconds',
])

/**
 * A query is safe when no parameter takes free text (an unknown type counts as text, spec 1 §3): only safe queries
 * may be embedded, shared on dashboards, or run with chosen values by view-only users.
 */
export function isSafeQuery(options: QueryOptions): boolean {
  return (options.parameters ?? []).every((p) => typeof p.type === 'string' && SAFE_PARAMETER_TYPES.has(p.type))
}

const ownerJson = (user: UserRow | undefined) => (user ? userJson(user, { withApiKey: false }) : null)

/** The fields every query shape shares (reference §3.1 `serialize_query`). */
function baseJson(row: Shown<QueryRow>): QueryBaseJson {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    query: row.query,
    query_hash: row.query_hash,
    data_source_id: row.data_source_id,
    latest_query_data_id: row.latest_query_data_id,
    schedule: row.schedule,
    options: row.options,
    tags: row.tags,
    is_draft: row.is_draft,
    is_archived: row.is_archived,
    is_safe: isSafeQuery(row.options),
    api_key: row.api_key,
    version: row.version,
    user_id: row.user_id,
    last_modified_by_id: row.last_modified_by_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    retrieved_at: iso(row.retrieved_at),
    runtime: row.runtime,
  }
}

export function visualizationJson(v: VisualizationRow): VisualizationJson {
  return {
    id: v.id,
    type: v.type,
    name: v.name,
    description: v.description,
    options: v.options,
    query_id: v.query_id,
    created_at: iso(v.created_at),
    updated_at: iso(v.updated_at),
  }
}

/** Everything the query page shows about one query (see `queryDetails` in details.ts). */
export interface QueryDetails {
  row: Shown<QueryRow>
  users: Map<number, UserRow>
  visualizations: VisualizationRow[]
  /** Absent for a caller who came with the query's own API key: they may only read. */
  canEdit?: boolean
  rights?: QueryRights
  isFavorite: boolean
}

/** One query with its visualizations, owner and last editor (GET, create, save, fork, restore). */
export function queryJson(d: QueryDetails): QueryJson {
  return {
    ...baseJson(d.row),
    user: ownerJson(d.users.get(d.row.user_id)),
    last_modified_by: d.row.last_modified_by_id === null ? null : ownerJson(d.users.get(d.row.last_modified_by_id)),
    visualizations: d.visualizations.map(visualizationJson),
    is_favorite: d.isFavorite,
    ...(d.canEdit === undefined ? {} : { can_edit: d.canEdit }),
  }
}

/** A query inside another object's answer (a dashboard's widget): with its owner and last editor, no visualizations. */
export function embeddedQueryJson(row: Shown<QueryRow>, users: Map<number, UserRow>): EmbeddedQueryJson {
  return {
    ...baseJson(row),
    user: ownerJson(users.get(row.user_id)),
    last_modified_by: row.last_modified_by_id === null ? null : ownerJson(users.get(row.last_modified_by_id)),
  }
}

/**
 * `embeddedQueryJson` already written as JSON, for long lists: the people come written too (`userText`, 'null' for
 * none), so each is serialised once however many queries name them. The same bytes as `JSON.stringify` of the object
 * form: the people are its last keys, spliced in after the rest.
 */
export function embeddedQueryText(row: Shown<QueryRow>, userText: (id: number) => string): string {
  const base = JSON.stringify(baseJson(row))
  const editor = row.last_modified_by_id === null ? 'null' : userText(row.last_modified_by_id)
  return `${base.slice(0, -1)},"user":${userText(row.user_id)},"last_modified_by":${editor}}`
}

/** A query in a list: its owner and the caller's star, no visualizations. */
export function queryListItemJson(row: Shown<QueryRow> & { is_favorite: boolean; starred_at: Date | null }, users: Map<number, UserRow>): QueryListItemJson {
  return {
    ...baseJson(row),
    user: ownerJson(users.get(row.user_id)),
    is_favorite: row.is_favorite,
    ...(row.is_favorite ? { starred_at: iso(row.starred_at) } : {}),
  }
}

/** One saved state of a query (GET /api/queries/{id}/versions). */
export function queryVersionJson(v: QueryVersionRow, users: Map<number, UserRow>) {
  return {
    version: v.version,
    user: v.user_id === null ? null : ownerJson(users.get(v.user_id)),
    created_at: iso(v.created_at),
    name: v.name,
    description: v.description,
    query: v.query,
    data_source_id: v.data_source_id,
    options: v.options,
    tags: v.tags,
    schedule: v.schedule,
  }
}
