import { allowed, isAdmin } from '../can.ts'
import type { SourceAccess } from '../objects.ts'
import type { Principal } from '../principal.ts'
import { allOf, grantIf, type Right } from './right.ts'

export const dataSourceRefusals = {
  noAccess: "You don't have access to this data source.",
  viewOnly: "You don't have permission to run queries with this data source.",
}

export interface DataSourceRights {
  /** list sources at all: list_data_sources, or an admin */
  list: Right
  /** see it, its schema and the results of queries on it: one of the caller's groups has it */
  view: Right
  /** run new text on it: full access and execute_query (spec 2 §5) */
  run: Right
  /** add, change, delete, pause, test: admins */
  manage: Right
}

/** A source's rights for one caller; `access` is the caller's access to it (undefined: none). Admins have full access. */
export function dataSourcePolicy(principal: Principal, access?: SourceAccess): DataSourceRights {
  const reach = isAdmin(principal) ? { view_only: false } : access
  return {
    list: grantIf(allowed(principal, 'list_data_sources')),
    view: grantIf(!!reach, dataSourceRefusals.noAccess),
    run: allOf(grantIf(!!reach, dataSourceRefusals.noAccess), grantIf(!reach?.view_only, dataSourceRefusals.viewOnly), grantIf(allowed(principal, 'execute_query'))),
    manage: grantIf(isAdmin(principal)),
  }
}
