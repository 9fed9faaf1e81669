import type { Principal } from './principal.ts'

/** Pure permission predicates: plain data in, boolean out. Guards in `require.ts` wrap them. */
export function has(principal: Principal | undefined, permission: string): boolean {
  return !!principal && principal.permissions.includes(permission)
}

export function isAdmin(principal: Principal | undefined): boolean {
  return has(principal, 'admin')
}

export function isSuperAdmin(principal: Principal | undefined): boolean {
  return has(principal, 'super_admin')
}

/** Admins act on everything; others on what they own (spec 1 §6). */
export function isAdminOrOwner(principal: Principal | undefined, ownerId: number | null | undefined): boolean {
  return isAdmin(principal) || (!!principal && ownerId != null && principal.id === ownerId)
}
