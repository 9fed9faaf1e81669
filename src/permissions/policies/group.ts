import { allowed, isAdmin } from '../can.ts'
import type { Principal } from '../principal.ts'
import { grantIf, type Right } from './right.ts'

export interface GroupRights {
  /** see it: admins see every group, others their own (reference §2.5) */
  view: Right
  /** see its members: admins, and its members who may list users */
  seeMembers: Right
  /** rename, delete, change members and sources: admins */
  manage: Right
}

export function groupPolicy(principal: Principal, group: { id: number }): GroupRights {
  const member = principal.groupIds.includes(group.id)
  return {
    view: grantIf(isAdmin(principal) || member),
    seeMembers: grantIf(isAdmin(principal) || (allowed(principal, 'list_users') && member)),
    manage: grantIf(isAdmin(principal)),
  }
}
