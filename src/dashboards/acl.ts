import type { Deps } from '../deps.ts'
import { grantAccess, holdsGrant, listAcl, revokeAccess, type Acl } from '../grants/index.ts'
import type { GrantRow } from '../grants/index.ts'
import type { Principal } from '../permissions/index.ts'
import { dashboardGrantTarget, getDashboardRow } from './access.ts'

/**
 * A dashboard's edit grants (spec 2 §6 "Manage Permissions"; reference §2.6): whoever may open the dashboard sees
 * who may edit it; its owner or an admin grants and revokes.
 */
async function target(deps: Deps, principal: Principal, id: number) {
  return dashboardGrantTarget(await getDashboardRow(deps, principal, id))
}

export async function dashboardAcl(deps: Deps, principal: Principal, id: number): Promise<Acl> {
  return listAcl(deps, principal, await target(deps, principal, id))
}

export async function grantDashboardAccess(deps: Deps, principal: Principal, id: number, body: unknown): Promise<GrantRow> {
  return grantAccess(deps, principal, await target(deps, principal, id), body)
}

export async function revokeDashboardAccess(deps: Deps, principal: Principal, id: number, body: unknown) {
  await revokeAccess(deps, principal, await target(deps, principal, id), body)
}

export async function dashboardGrantCheck(deps: Deps, principal: Principal, id: number, accessType: string): Promise<boolean> {
  return holdsGrant(deps, principal, await target(deps, principal, id), accessType)
}
