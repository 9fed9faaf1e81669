import type { EmbeddedQueryJson, VisualizationJson } from './queries.ts'
import type { UserJson } from './users.ts'

/** A dashboard's owner as dashboards show them: four keys, no groups, no key (reference §1.1). */
export type DashboardOwnerJson = Pick<UserJson, 'id' | 'name' | 'email' | 'profile_image_url'>

/** The fields every dashboard shape shares (reference §1.1); `slug` comes from the current name. */
export interface DashboardBaseJson {
  id: number
  slug: string
  name: string
  user_id: number
  user: DashboardOwnerJson | null
  layout: unknown[]
  dashboard_filters_enabled: boolean
  options: Record<string, unknown>
  is_archived: boolean
  is_draft: boolean
  tags: string[]
  updated_at: string | null
  created_at: string | null
  version: number
}

/** A dashboard in a list: no widgets (null), the caller's star. */
export interface DashboardListItemJson extends DashboardBaseJson {
  widgets: null
  is_favorite: boolean
}

/** The fields every widget shape shares: where it sits (`options.position`) and how wide. */
interface WidgetBaseJson {
  id: number
  width: number
  options: Record<string, unknown>
  dashboard_id: number
  created_at: string | null
  updated_at: string | null
}

/** A text box: markdown, no visualization key. */
export interface TextWidgetJson extends WidgetBaseJson {
  text: string
}

/** A visualization with its query (the visualization without its `query_id`, the query embedded). */
export interface VisualizationWidgetJson extends TextWidgetJson {
  visualization: Omit<VisualizationJson, 'query_id'> & { query: EmbeddedQueryJson }
}

/** A widget whose query the caller may not see: exactly seven keys that say nothing of it. */
export interface RestrictedWidgetJson extends WidgetBaseJson {
  restricted: true
}

/** A widget in one of the three shapes of reference §1.1. */
export type WidgetJson = TextWidgetJson | VisualizationWidgetJson | RestrictedWidgetJson

/** `GET api/dashboards/{id}`: the dashboard with its widgets, the caller's star and edit right. */
export interface DashboardJson extends DashboardBaseJson {
  widgets: WidgetJson[] | null
  is_favorite: boolean
  can_edit: boolean
}
