import { allowedBy } from '../permissions/index.ts'
import { texts } from '../shared/texts.ts'
import { queryTexts } from '../shared/query-texts.ts'

export interface NavItem {
  key: string
  label: string
  href: string
}

/** What the menus offer follows the server's one meaning of allowed (admins hold every permission but super_admin). */
const can = allowedBy

/** Settings items in their order (spec 3 §1), each with who may see it. */
export function settingsItems(permissions: readonly string[]): NavItem[] {
  const admin = can(permissions, 'admin')
  const listUsers = can(permissions, 'list_users')
  const items: [boolean, NavItem][] = [
    [admin, { key: 'data_sources', label: texts.settingsItems.dataSources, href: '/data_sources' }],
    [listUsers, { key: 'users', label: texts.settingsItems.users, href: '/users' }],
    [listUsers, { key: 'groups', label: texts.settingsItems.groups, href: '/groups' }],
    [admin, { key: 'destinations', label: texts.settingsItems.destinations, href: '/destinations' }],
    [can(permissions, 'create_query'), { key: 'query_snippets', label: queryTexts.snippets.title, href: '/query_snippets' }],
    [admin, { key: 'general', label: texts.settingsItems.general, href: '/settings/general' }],
  ]
  return items.filter(([visible]) => visible).map(([, item]) => item)
}

/** What the app shell offers a user, decided by their permissions (spec 1 §2 "Desktop side navigation"). */
export function navigation(permissions: readonly string[]) {
  const main: NavItem[] = []
  if (can(permissions, 'list_dashboards')) main.push({ key: 'dashboards', label: texts.nav.dashboards, href: '/dashboards' })
  if (can(permissions, 'view_query')) main.push({ key: 'queries', label: texts.nav.queries, href: '/queries' })
  if (can(permissions, 'list_alerts')) main.push({ key: 'alerts', label: texts.nav.alerts, href: '/alerts' })
  const create: NavItem[] = []
  if (can(permissions, 'create_query')) create.push({ key: 'new_query', label: texts.nav.newQuery, href: '/queries/new' })
  if (can(permissions, 'create_dashboard')) create.push({ key: 'new_dashboard', label: texts.nav.newDashboard, href: '/dashboards/new' })
  if (can(permissions, 'list_alerts')) create.push({ key: 'new_alert', label: texts.nav.newAlert, href: '/alerts/new' })
  return {
    main,
    create,
    settingsHref: settingsItems(permissions)[0]?.href,
    superAdmin: can(permissions, 'super_admin'),
  }
}
