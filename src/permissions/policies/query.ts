import { allowed, isAdmin, isAdminOrOwner } from '../can.ts'
import type { SourceAccess } from '../objects.ts'
import type { Principal } from '../principal.ts'
import { allOf, grantIf, NO_PERMISSION, type Right } from './right.ts'

export const queryRefusals = {
  viewOnly: "You have view-only access to this query's data source.",
  cannotEdit: "You don't have permission to edit this resource.",
}

/** What decides a query's rights: its owner, and whether it is archived or safe to run with any values. */
export interface QueryPolicyRow {
  user_id: number | null
  is_archived?: boolean
  is_safe?: boolean
}

export interface QueryRights {
  /** read it and its stored results (view-only access to the source is enough) */
  view: Right
  /** change its text, options, visualizations (reference §2.4 `can_edit`) */
  edit: Right
  /** copy it as one's own draft */
  fork: Right
  /** run new text on its source, or its parameters with new values when they are not safe */
  run: Right
  /** run it as saved from its page: any value when its parameters are safe, else `run` */
  execute: Right
  schedule: Right
  /** archive it, make a new API key: the owner or an admin */
  manage: Right
  /** see and hold its API key, which publishes its data (decision 0025) */
  holdApiKey: Right
}

/**
 * A query's rights for one caller. `access` is the caller's access to the query's source (undefined: none), `granted`
 * the access types the object's ACL gives the caller ('modify'; read only when neither admin nor owner).
 */
export function queryPolicy(principal: Principal, row: QueryPolicyRow, access: SourceAccess | undefined, granted: readonly string[]): QueryRights {
  const viewOnly = !access || access.view_only
  const view = grantIf(allowed(principal, 'view_query') && !!access)
  const edit = allOf(
    grantIf(allowed(principal, 'edit_query')),
    grantIf(isAdminOrOwner(principal, row.user_id) || granted.includes('modify'), queryRefusals.cannotEdit),
    grantIf(!viewOnly, queryRefusals.viewOnly),
  )
  const run = allOf(grantIf(!viewOnly, queryRefusals.viewOnly), grantIf(allowed(principal, 'execute_query')))
  return {
    view,
    edit,
    fork: allOf(grantIf(allowed(principal, 'edit_query')), grantIf(!viewOnly, queryRefusals.viewOnly)),
    run,
    execute: row.is_archived ? NO_PERMISSION : row.is_safe ? view : run,
    schedule: allOf(edit, grantIf(allowed(principal, 'schedule_query'))),
    manage: grantIf(isAdminOrOwner(principal, row.user_id), queryRefusals.cannotEdit),
    holdApiKey: grantIf(edit === true || isAdmin(principal), queryRefusals.viewOnly),
  }
}
