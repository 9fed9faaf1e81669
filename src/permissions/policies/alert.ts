import { allowed, isAdmin, isAdminOrOwner } from '../can.ts'
import type { Principal } from '../principal.ts'
import { allOf, grantIf, type Right } from './right.ts'

export const alertRefusals = {
  cannotEdit: "You don't have permission to edit this alert.",
  queryNotVisible: "You don't have access to this query.",
  cannotUnsubscribe: 'Only the subscriber or an admin can remove this subscription.',
}

export interface AlertRights {
  /** see it: its query's source is in one of the caller's groups (reference §6.1) */
  view: Right
  list: Right
  /** mute, delete, subscribe destinations: the owner or an admin, even one who lost the query */
  manage: Right
  /** change its conditions or evaluate it, which reads its query's rows: `manage` and seeing the query */
  edit: Right
}

/**
 * An alert's rights for one caller: `queryVisible` says whether the caller may see the alert's query. Without a row,
 * what they may do with alerts in general.
 */
export function alertPolicy(principal: Principal, row?: { user_id: number | null }, queryVisible = false): AlertRights {
  const manage = grantIf(!!row && isAdminOrOwner(principal, row.user_id), alertRefusals.cannotEdit)
  return {
    view: grantIf(queryVisible),
    list: grantIf(allowed(principal, 'list_alerts')),
    manage,
    edit: allOf(manage, grantIf(queryVisible, alertRefusals.queryNotVisible)),
  }
}

/** Removing a subscription to an alert: the subscriber or an admin. */
export const alertSubscriptionPolicy = (principal: Principal, subscription: { user_id: number | null }): Right =>
  grantIf(subscription.user_id === principal.id || isAdmin(principal), alertRefusals.cannotUnsubscribe)
