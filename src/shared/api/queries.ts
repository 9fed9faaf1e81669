import type { ParameterDefinition } from '../parameters/index.ts'
import type { UserJson } from './users.ts'

/** A refresh schedule as stored and answered (reference §5.1); the weekly day by its full English name. */
export interface QueryScheduleJson {
  interval: number
  time: string | null
  day_of_week: string | null
  until: string | null
}

/** A query's options: its parameters and the auto-limit switch; unknown keys kept as given. */
export interface QueryOptionsJson {
  parameters?: ParameterDefinition[]
  apply_auto_limit?: boolean
  [key: string]: unknown
}

/** The fields every query shape shares (reference §3.1 `serialize_query`). */
export interface QueryBaseJson {
  id: number
  name: string
  description: string | null
  query: string
  query_hash: string
  data_source_id: number | null
  latest_query_data_id: number | null
  schedule: QueryScheduleJson | null
  options: QueryOptionsJson
  tags: string[]
  is_draft: boolean
  is_archived: boolean
  /** No parameter takes free text: the query may be embedded, shared, or run with chosen values by view-only users. */
  is_safe: boolean
  /** The query's own key, for the callers that may see it. */
  api_key: string | null
  version: number
  user_id: number
  last_modified_by_id: number | null
  created_at: string | null
  updated_at: string | null
  retrieved_at: string | null
  runtime: number | null
}

/** A query inside another object's answer (a widget, an alert): with its owner and last editor. */
export interface EmbeddedQueryJson extends QueryBaseJson {
  user: UserJson | null
  last_modified_by: UserJson | null
}

/** A visualization of a query (reference §3.2). */
export interface VisualizationJson {
  id: number
  type: string
  name: string
  description: string | null
  options: Record<string, unknown>
  query_id: number
  created_at: string | null
  updated_at: string | null
}

/** One query as `api/queries/{id}` answers it: with its visualizations and the caller's star. */
export interface QueryJson extends EmbeddedQueryJson {
  visualizations: VisualizationJson[]
  is_favorite: boolean
  /** Whether the caller may edit it; absent for a caller who came with the query's own key. */
  can_edit?: boolean
}

/** A query in a list: its owner and the caller's star, no visualizations. */
export interface QueryListItemJson extends QueryBaseJson {
  user: UserJson | null
  is_favorite: boolean
  starred_at?: string | null
}
