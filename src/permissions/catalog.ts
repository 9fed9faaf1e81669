/** Every permission string Sightline knows, as in the established tool (reference §9.4). */
export const PERMISSIONS = [
  'admin', 'super_admin', 'create_dashboard', 'create_query', 'edit_dashboard', 'edit_query', 'view_query',
  'view_source', 'execute_query', 'list_users', 'schedule_query', 'list_dashboards', 'list_alerts',
  'list_data_sources',
] as const
export type Permission = (typeof PERMISSIONS)[number]

/** The builtin `default` group, and every new group (reference §2.2). */
export const DEFAULT_PERMISSIONS: Permission[] = [
  'create_dashboard', 'create_query', 'edit_dashboard', 'edit_query', 'view_query', 'view_source',
  'execute_query', 'list_users', 'schedule_query', 'list_dashboards', 'list_alerts', 'list_data_sources',
]

/** The builtin `admin` group. */
export const ADMIN_PERMISSIONS: Permission[] = ['admin', 'super_admin']

export const BUILTIN_GROUPS = [
  { name: 'admin', permissions: ADMIN_PERMISSIONS },
  { name: 'default', permissions: DEFAULT_PERMISSIONS },
] as const
