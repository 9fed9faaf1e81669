import { allowed, isAdminOrOwner } from '../can.ts'
import type { Principal } from '../principal.ts'
import { allOf, grantIf, type Right } from './right.ts'

export const dashboardRefusals = {
  cannotEdit: "You don't have permission to edit this dashboard.",
  cannotShare: "You don't have permission to edit this resource.",
}

export interface DashboardRights {
  /** open it: whoever may list dashboards may open any (reference §7.1); its widgets decide what they show */
  view: Right
  create: Right
  /** change it and its widgets (reference §1.1 `can_edit`) */
  edit: Right
  /** share it publicly, unshare it, see its public address: the owner or an admin */
  share: Right
}

/**
 * A dashboard's rights for one caller; without a row, what they may do with dashboards in general. `granted` holds the
 * access types the dashboard's ACL gives the caller ('modify').
 */
export function dashboardPolicy(principal: Principal, row?: { user_id: number | null }, granted: readonly string[] = []): DashboardRights {
  const owns = !!row && isAdminOrOwner(principal, row.user_id)
  return {
    view: grantIf(allowed(principal, 'list_dashboards')),
    create: grantIf(allowed(principal, 'create_dashboard')),
    edit: allOf(grantIf(allowed(principal, 'edit_dashboard')), grantIf(owns || granted.includes('modify'), dashboardRefusals.cannotEdit)),
    share: grantIf(owns, dashboardRefusals.cannotShare),
  }
}
