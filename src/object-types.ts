/**
 * The kinds of object people star and grant each other edit rights on, named as the API names them: the path
 * segment of `/api/<type>/<id>/acl` and the `object_type` of a grant (reference §2.6). Favourites (src/favorites/)
 * and grants (src/grants/) are written once for all of them.
 */
export const OBJECT_TYPES = ['queries', 'dashboards'] as const

export type ObjectType = (typeof OBJECT_TYPES)[number]

/**
 * What the `object_type` columns of `favorites` and `access_permissions` hold for each kind (their checks allow
 * exactly these), which is also the object type of the audit events about them. A new kind needs a migration that
 * widens both checks.
 */
export const STORED_OBJECT_TYPE: Readonly<Record<ObjectType, string>> = { queries: 'query', dashboards: 'dashboard' }

export const isObjectType = (value: string): value is ObjectType => (OBJECT_TYPES as readonly string[]).includes(value)
