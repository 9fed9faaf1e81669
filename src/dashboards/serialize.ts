import type { Shown, QueryRow, VisualizationRow } from '../queries/index.ts'
import { embeddedQueryJson, visualizationJson } from '../queries/index.ts'
import type { DashboardBaseJson, DashboardJson, DashboardListItemJson, DashboardOwnerJson, TextWidgetJson, WidgetJson } from '../shared/api/dashboards.ts'
import { iso } from '../shared/time.ts'
import { profileImageUrl } from '../users/index.ts'
import type { UserRow } from '../users/index.ts'
import type { DashboardRow } from './store.ts'
import type { DashboardWidgetRow, WidgetRow } from './widget-store.ts'

/**
 * A name as an address part (reference §7.1 `slugify`): lower case, every run of other characters than letters,
 * digits, `_` and `-` made one `-`. Sightline also trims the dashes at the ends, and names with no such character
 * (all Korean, say) become `dashboard`.
 */
export function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'dashboard'
}

/** The owner as dashboards show them: four keys, no groups, no key (reference §1.1). */
const ownerJson = (u: UserRow | undefined): DashboardOwnerJson | null =>
  u ? { id: u.id, name: u.name, email: u.email, profile_image_url: profileImageUrl(u.email, u.profile_image_url) } : null

/** The fields every dashboard shape shares; `slug` comes from the current name, as the established tool answers. */
export function dashboardBaseJson(d: DashboardRow, users: Map<number, UserRow>): DashboardBaseJson {
  return {
    id: d.id,
    slug: slugify(d.name),
    name: d.name,
    user_id: d.user_id,
    user: ownerJson(users.get(d.user_id)),
    layout: d.layout,
    dashboard_filters_enabled: d.dashboard_filters_enabled,
    options: d.options,
    is_archived: d.is_archived,
    is_draft: d.is_draft,
    tags: d.tags,
    updated_at: iso(d.updated_at),
    created_at: iso(d.created_at),
    version: d.version,
  }
}

/** A dashboard in a list: no widgets (null), the caller's star. */
export function dashboardListItemJson(d: DashboardRow & { is_favorite: boolean }, users: Map<number, UserRow>): DashboardListItemJson {
  return { ...dashboardBaseJson(d, users), widgets: null, is_favorite: d.is_favorite }
}

/** What a widget shows, looked up once for the whole dashboard. */
export interface WidgetContext {
  visualizations: Map<number, VisualizationRow>
  queries: Map<number, Shown<QueryRow>>
  users: Map<number, UserRow>
}

const widgetBaseJson = (w: WidgetRow): TextWidgetJson => ({
  id: w.id, width: w.width, options: w.options, dashboard_id: w.dashboard_id, text: w.text,
  updated_at: iso(w.updated_at), created_at: iso(w.created_at),
})

/**
 * A widget in one of the three shapes of reference §1.1: a text box (no visualization key), a visualization with its
 * query, or, when the caller may not see that query, exactly seven keys that say nothing of it.
 */
export function widgetJson(w: DashboardWidgetRow | WidgetRow, ctx: WidgetContext): WidgetJson {
  if (w.visualization_id === null) return widgetBaseJson(w)
  const visualization = ctx.visualizations.get(w.visualization_id)
  const query = visualization && ctx.queries.get(visualization.query_id)
  if (('visible' in w && !w.visible) || !visualization || !query) {
    return { id: w.id, width: w.width, dashboard_id: w.dashboard_id, options: w.options, created_at: iso(w.created_at), updated_at: iso(w.updated_at), restricted: true }
  }
  const { query_id: _queryId, ...visualizationFields } = visualizationJson(visualization)
  return { ...widgetBaseJson(w), visualization: { ...visualizationFields, query: embeddedQueryJson(query, ctx.users) } }
}

/** GET /api/dashboards/{id}: the dashboard with its widgets, the caller's star and edit right. */
export function dashboardJson(
  d: DashboardRow, users: Map<number, UserRow>, widgets: (DashboardWidgetRow | WidgetRow)[] | null, ctx: WidgetContext,
  caller: { isFavorite: boolean; canEdit: boolean },
): DashboardJson {
  return {
    ...dashboardBaseJson(d, users),
    widgets: widgets === null ? null : widgets.map((w) => widgetJson(w, ctx)),
    is_favorite: caller.isFavorite,
    can_edit: caller.canEdit,
  }
}
