import { isAdmin } from '../can.ts'
import type { Principal } from '../principal.ts'
import { grantIf, type Right } from './right.ts'

export interface DestinationRights {
  /** pick one for an alert or a report: every member sees the organization's destinations by name and kind */
  use: Right
  /** add, change, delete, see their settings: admins (settings hold secrets) */
  manage: Right
}

export function destinationPolicy(principal: Principal): DestinationRights {
  return { use: true, manage: grantIf(isAdmin(principal)) }
}
