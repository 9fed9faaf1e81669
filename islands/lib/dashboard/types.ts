/** The dashboard as its page's header island gets it: what the header shows and changes, nothing of the widgets. */
export interface HeaderDashboard {
  id: number
  name: string
  slug: string
  user: { id: number; name: string; profile_image_url: string } | null
  tags: string[]
  is_draft: boolean
  is_archived: boolean
  is_favorite: boolean
  can_edit: boolean
  dashboard_filters_enabled: boolean
  version: number
}

/** Props of the DashboardHeader island, decided on the server from the caller's rights and the address. */
export interface DashboardHeaderProps {
  dashboard: HeaderDashboard
  /** The organization shows Manage Permissions (feature_show_permissions_control) and the caller owns the dashboard or is an admin. */
  mayManagePermissions: boolean
  /** The caller may create dashboards, so Fork is offered. */
  mayFork: boolean
  /** The client configuration's auto-refresh choices, in seconds. */
  refreshIntervals: number[]
  /** What the address asked for, as far as the caller may have it. */
  initial: { edit: boolean; fullscreen: boolean; refresh: number | null }
  /**
   * Share Dashboard, for its owner or an admin while public URLs are allowed: the public address, null while off;
   * `unsafe` while a chart's query has text parameters (sharing cannot be turned on).
   */
  share?: { publicUrl: string | null; unsafe?: boolean } | null
}

/** The fields of an API answer the header keeps after each change. */
export function headerFields(d: HeaderDashboard): HeaderDashboard {
  return {
    id: d.id, name: d.name, slug: d.slug, user: d.user, tags: d.tags, is_draft: d.is_draft, is_archived: d.is_archived,
    is_favorite: d.is_favorite, can_edit: d.can_edit, dashboard_filters_enabled: d.dashboard_filters_enabled, version: d.version,
  }
}
