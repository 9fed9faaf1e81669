import { Forbidden, Unauthorized } from '../errors.ts'
import { allowed, isAdmin, isAdminOrOwner } from './can.ts'
import type { Principal } from './principal.ts'

export function requirePrincipal(principal: Principal | undefined): Principal {
  if (!principal) throw new Unauthorized()
  return principal
}

/** 401 without a caller, 403 unless `allowed` (admins pass, see can.ts). */
export function requireAllowed(principal: Principal | undefined, permission: string): Principal {
  const p = requirePrincipal(principal)
  if (!allowed(p, permission)) throw new Forbidden()
  return p
}

export function requireAdmin(principal: Principal | undefined): Principal {
  const p = requirePrincipal(principal)
  if (!isAdmin(p)) throw new Forbidden()
  return p
}

export function requireAdminOrOwner(principal: Principal | undefined, ownerId: number): Principal {
  const p = requirePrincipal(principal)
  if (!isAdminOrOwner(p, ownerId)) throw new Forbidden("You don't have permission to edit this resource.")
  return p
}
