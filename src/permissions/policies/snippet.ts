import { allowed, isAdminOrOwner } from '../can.ts'
import type { Principal } from '../principal.ts'
import { grantIf, NO_PERMISSION, type Right } from './right.ts'

export const snippetRefusals = {
  cannotEdit: "You don't have permission to edit this resource.", // reference §2.4 require_admin_or_owner
}

export interface SnippetRights {
  /** see snippets: whoever reads or writes queries */
  view: Right
  create: Right
  /** change or delete this one: its author or an admin */
  edit: Right
}

/** A snippet's rights for one caller; without a row, what they may do with snippets in general. */
export function snippetPolicy(principal: Principal, row?: { user_id: number | null }): SnippetRights {
  return {
    view: grantIf(allowed(principal, 'view_query') || allowed(principal, 'create_query')),
    create: grantIf(allowed(principal, 'create_query')),
    edit: row ? grantIf(isAdminOrOwner(principal, row.user_id), snippetRefusals.cannotEdit) : NO_PERMISSION,
  }
}
