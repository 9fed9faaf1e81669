import type { Principal } from './principal.ts'

/**
 * The one meaning of "allowed": the caller's groups give the permission, or the caller is an admin. Admins hold every
 * permission except those listed here, which only a group that names them gives: `super_admin` (system status,
 * reference §9.4) is its own right, so an admin of a custom group with `admin` alone does not see it.
 */
const NOT_IMPLIED_BY_ADMIN: ReadonlySet<string> = new Set(['super_admin'])

/** Pure permission predicates: plain data in, boolean out. Guards in `require.ts` wrap them. */
export function allowedBy(permissions: readonly string[], permission: string): boolean {
  return permissions.includes(permission) || (permissions.includes('admin') && !NOT_IMPLIED_BY_ADMIN.has(permission))
}

export function allowed(principal: Principal | undefined, permission: string): boolean {
  return !!principal && allowedBy(principal.permissions, permission)
}

export function isAdmin(principal: Principal | undefined): boolean {
  return allowed(principal, 'admin')
}

export function isSuperAdmin(principal: Principal | undefined): boolean {
  return allowed(principal, 'super_admin')
}

/** Admins act on everything; others on what they own (spec 1 §6). */
export function isAdminOrOwner(principal: Principal | undefined, ownerId: number | null | undefined): boolean {
  return isAdmin(principal) || (!!principal && ownerId != null && principal.id === ownerId)
}
