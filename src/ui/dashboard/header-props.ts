import type { DashboardHeaderProps } from '../../../islands/lib/dashboard/types.ts'
import type { Config } from '../../config.ts'
import type { DashboardJson } from '../../dashboards/index.ts'
import { dashboardPolicy } from '../../permissions/index.ts'
import type { Principal } from '../../permissions/index.ts'
import { clientConfig } from '../../session/index.ts'
import type { OrgSettings } from '../../settings/index.ts'

/**
 * The header island's props: the dashboard's own fields (no widgets: they are on the page already), the caller's
 * rights, and the address's flags as far as the caller may have them: `?edit` only for an editor of an unarchived
 * dashboard, `?fullscreen` only once it is published (spec 2 §2), `?refresh` as a number of seconds.
 */
export function dashboardHeaderProps(
  config: Config, settings: OrgSettings, principal: Principal, d: DashboardJson, query: Record<string, string | undefined>,
): DashboardHeaderProps {
  const refresh = Number(query.refresh)
  return {
    dashboard: {
      id: d.id, name: d.name, slug: d.slug, user: d.user, tags: d.tags, is_draft: d.is_draft, is_archived: d.is_archived,
      is_favorite: d.is_favorite, can_edit: d.can_edit, dashboard_filters_enabled: d.dashboard_filters_enabled, version: d.version,
    },
    mayManagePermissions: settings.feature_show_permissions_control && dashboardPolicy(principal, d).share === true,
    mayFork: dashboardPolicy(principal).create === true,
    refreshIntervals: clientConfig(config, settings, principal).dashboardRefreshIntervals,
    initial: {
      edit: query.edit !== undefined && d.can_edit && !d.is_archived,
      fullscreen: query.fullscreen !== undefined && !d.is_draft,
      refresh: query.refresh !== undefined && Number.isFinite(refresh) && refresh > 0 ? refresh : null,
    },
  }
}
