import { allowed, isAdmin, isAdminOrOwner } from '../can.ts'
import type { Principal } from '../principal.ts'
import { allOf, grantIf, NO_PERMISSION, type Right } from './right.ts'

export const userRefusals = {
  cannotEdit: "You don't have permission to edit this resource.",
  disabledReadOnly: "A disabled user's profile cannot be changed.",
  mustBeAdminForGroups: 'Must be admin to change groups membership.',
  onlyAdminsSeeDisabled: 'Only admins can list disabled users.',
}

export interface UserRights {
  /** the users list, and other people's profiles: list_users, or an admin */
  list: Right
  listDisabled: Right
  /** this profile: oneself, or anyone when one may list users */
  view: Right
  /** change this profile, make a new API key: oneself or an admin; a disabled profile is read-only */
  edit: Right
  /** a user's groups: admins (and never their own, which the service checks against the change) */
  changeGroups: Right
  /** see this user's API key: oneself or an admin */
  holdApiKey: Right
}

/** A user's rights for one caller; without a row, what they may do with users in general. */
export function userPolicy(principal: Principal, user?: { id: number; disabled_at?: Date | string | null }): UserRights {
  const list = grantIf(allowed(principal, 'list_users'))
  const self = !!user && user.id === principal.id
  return {
    list,
    listDisabled: allOf(list, grantIf(isAdmin(principal), userRefusals.onlyAdminsSeeDisabled)),
    view: self ? true : user ? list : NO_PERMISSION,
    edit: allOf(grantIf(!!user && isAdminOrOwner(principal, user.id), userRefusals.cannotEdit), grantIf(!user?.disabled_at, userRefusals.disabledReadOnly)),
    changeGroups: grantIf(isAdmin(principal), userRefusals.mustBeAdminForGroups),
    holdApiKey: grantIf(self || isAdmin(principal)),
  }
}
