import type { Deps } from '../deps.ts'
import type { Db } from '../db/index.ts'
import { NotFound } from '../errors.ts'
import { grantedTo, type GrantTarget } from '../grants/index.ts'
import { dashboardPolicy, dashboardRefusals, requireRight } from '../permissions/index.ts'
import type { DashboardRights, Principal } from '../permissions/index.ts'
import { findDashboard, findDashboardBySlug, type DashboardRow } from './store.ts'

export const dashboardAccessTexts = dashboardRefusals

/**
 * One dashboard of the caller's organization, archived or not: whoever may list dashboards may open any of them
 * (reference §7.1); what its widgets show is decided per widget. 404 for other organizations' dashboards.
 */
export async function getDashboardRow(deps: Pick<Deps, 'sql'>, principal: Principal, id: number): Promise<DashboardRow> {
  requireRight(dashboardPolicy(principal).view)
  const row = await findDashboard(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound()
  return row
}

/** The dashboard a legacy address names by its slug (`GET api/dashboards/<slug>?legacy`). */
export async function getDashboardRowBySlug(deps: Pick<Deps, 'sql'>, principal: Principal, slug: string): Promise<DashboardRow> {
  requireRight(dashboardPolicy(principal).view)
  // no slug we make holds a NUL (PostgreSQL text cannot), nor runs past a name's length
  if (slug.includes('\u0000') || slug.length > 1024) throw new NotFound()
  const row = await findDashboardBySlug(deps.sql, principal.orgId, slug)
  if (!row) throw new NotFound()
  return row
}

/**
 * The dashboard `GET api/dashboards/<address>` names. Older servers found dashboards by slug, and clients still call
 * so, some with a `?legacy` their HTTP library drops: a number is an id; `12-sales-overview` is dashboard 12 (spec 2
 * §2), or, when there is none, the dashboard whose slug it is (a name that starts with digits, "2024 plan"); any other
 * text is a slug. `legacy` (the address has `?legacy`, with or without a value) looks for the slug only.
 */
export async function getDashboardRowByAddress(deps: Pick<Deps, 'sql'>, principal: Principal, address: string, legacy: boolean): Promise<DashboardRow> {
  if (legacy) return getDashboardRowBySlug(deps, principal, address)
  const id = /^(\d{1,15})(-.*)?$/s.exec(address)
  if (!id) return getDashboardRowBySlug(deps, principal, address)
  const byId = Number(id[1]) > 0 ? await getDashboardRow(deps, principal, Number(id[1])).catch(notFoundAsUndefined) : undefined
  if (byId || !id[2]) return byId ?? notFound()
  return getDashboardRowBySlug(deps, principal, address)
}

const notFoundAsUndefined = (error: unknown) => {
  if (error instanceof NotFound) return undefined
  throw error
}
const notFound = (): never => {
  throw new NotFound()
}

/** A dashboard as grants see it. */
export const dashboardGrantTarget = (row: DashboardRow): GrantTarget => ({ type: 'dashboards', id: row.id, ownerId: row.user_id })

/** The caller's rights on a dashboard (src/permissions/policies/dashboard.ts); its ACL is read only when it decides. */
export async function dashboardRights(db: Db, principal: Principal, row: DashboardRow): Promise<DashboardRights> {
  return dashboardPolicy(principal, row, await grantedTo(db, principal, dashboardGrantTarget(row)))
}

/** `can_edit` (reference §1.1): edit_dashboard, and admin, owner or granted 'modify'. */
export async function canEditDashboard(db: Db, principal: Principal, row: DashboardRow): Promise<boolean> {
  return (await dashboardRights(db, principal, row)).edit === true
}

/** The guard of every change to a dashboard and its widgets: 403 with the reason. */
export async function requireEditDashboard(db: Db, principal: Principal, row: DashboardRow): Promise<void> {
  requireRight((await dashboardRights(db, principal, row)).edit)
}
