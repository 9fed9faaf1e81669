import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import type { DashboardJson } from '../../dashboards/index.ts'
import type { Principal } from '../../permissions/index.ts'
import { DEFAULT_SETTINGS } from '../../settings/index.ts'
import { dashboardHeaderProps } from './header-props.ts'

const person = (id: number, permissions: string[]): Principal => ({
  kind: 'user', id, orgId: 1, name: 'P', email: 'p@example.com', profileImageUrl: '', groupIds: [], permissions, isEmailVerified: true, via: 'session',
})
const owner = person(1, ['create_dashboard', 'edit_dashboard'])
const viewer = person(2, [])
const admin = person(3, ['admin'])
const board = (o: Partial<DashboardJson> = {}) => ({
  id: 7, slug: 'sales', name: 'Sales', user_id: 1, user: { id: 1, name: 'O', email: 'o@example.com', profile_image_url: '' }, tags: [],
  is_draft: false, is_archived: false, is_favorite: false, can_edit: true, dashboard_filters_enabled: false, version: 3, widgets: [], ...o,
}) as unknown as DashboardJson
const props = (p: Principal, d: DashboardJson, query: Record<string, string>, permissionsControl = false) =>
  dashboardHeaderProps(loadConfig({}), { ...DEFAULT_SETTINGS, feature_show_permissions_control: permissionsControl }, p, d, query)

describe("the dashboard header's props", () => {
  it('gives edit mode from the address only to an editor of an unarchived dashboard', () => {
    expect(props(owner, board(), { edit: '' }).initial.edit).toBe(true)
    expect(props(viewer, board({ can_edit: false }), { edit: '' }).initial.edit).toBe(false)
    expect(props(owner, board({ is_archived: true }), { edit: '' }).initial.edit).toBe(false)
    expect(props(owner, board(), {}).initial.edit).toBe(false)
  })

  it('gives fullscreen only to a published dashboard, and reads the refresh interval as seconds', () => {
    expect(props(viewer, board(), { fullscreen: '' }).initial.fullscreen).toBe(true)
    expect(props(viewer, board({ is_draft: true }), { fullscreen: '' }).initial.fullscreen).toBe(false)
    expect(props(viewer, board(), { refresh: '300' }).initial.refresh).toBe(300)
    expect(props(viewer, board(), { refresh: 'soon' }).initial.refresh).toBeNull()
    expect(props(viewer, board(), { refresh: '-5' }).initial.refresh).toBeNull()
  })

  it('offers Manage Permissions with the setting on, to the owner and admins only; Fork to whoever may create dashboards', () => {
    expect(props(owner, board(), {}, true).mayManagePermissions).toBe(true)
    expect(props(admin, board(), {}, true).mayManagePermissions).toBe(true)
    expect(props(viewer, board(), {}, true).mayManagePermissions).toBe(false)
    expect(props(owner, board(), {}, false).mayManagePermissions).toBe(false)
    expect(props(owner, board(), {}).mayFork).toBe(true)
    expect(props(viewer, board(), {}).mayFork).toBe(false)
  })

  it('carries the configured auto-refresh intervals and none of the widgets', () => {
    const p = props(viewer, board(), {})
    expect(p.refreshIntervals).toContain(60)
    expect(p.dashboard).not.toHaveProperty('widgets')
  })
})
