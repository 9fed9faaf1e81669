import type { Deps } from '../deps.ts'
import type { Db } from '../db/index.ts'
import { BadRequest, Conflict } from '../errors.ts'
import { audited, recordAudit } from '../events/index.ts'
import { setFavorite } from '../favorites/index.ts'
import type { Principal } from '../permissions/index.ts'
import { allowed, dashboardPolicy, requireRight } from '../permissions/index.ts'
import { viewerOf, cleanTags, listViewer } from '../queries/index.ts'
import { usersByIds } from '../users/index.ts'
import { LIMITS } from '../validation/index.ts'
import { getDashboardRow, requireEditDashboard } from './access.ts'
import { parseCreateDashboard, parseUpdateDashboard, type DashboardUpdate } from './body.ts'
import { dashboardDetails, type DashboardJson } from './details.ts'
import { dashboardTagCounts, findDashboardPage, findRecentlyViewed, parseDashboardListParams, type DashboardListKind } from './list-store.ts'
import { dashboardJson, dashboardListItemJson, slugify } from './serialize.ts'
import * as store from './store.ts'
import { copyWidgets, listDashboardWidgets } from './widget-store.ts'
import { forkTexts } from '../shared/dashboard-texts.ts'

export type { DashboardListKind }

export const dashboardTexts = {
  // spec 2 §8: the browser shows this, not auto-dismissed, and asks to reload
  conflict: 'It seems like the dashboard has been modified by another user. Please copy/backup your changes and reload this page.',
  archived: 'This dashboard is archived. Unarchive it before changing it.',
}

const RECENT_LIMIT = 20

/** A slug no dashboard of the organization has yet: the name's, else with `_1`, `_2` … (reference §7.1). */
async function freeSlug(db: Db, orgId: number, name: string): Promise<string> {
  const base = slugify(name).slice(0, 200)
  const taken = await store.slugsLike(db, orgId, base)
  if (!taken.has(base)) return base
  for (let n = 1; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`
}

/** Insert with a free slug; two dashboards of one name made at once: the unique index decides, and the loser tries again. */
async function insertWithSlug(
  deps: Deps, principal: Principal, d: Omit<store.NewDashboard, 'slug' | 'orgId' | 'userId'>,
): Promise<store.DashboardRow> {
  const owned = { ...d, orgId: principal.orgId, userId: principal.id }
  for (let attempt = 0; ; attempt++) {
    try {
      return await audited(deps.sql, principal, (row) => ({ action: 'create', objectType: 'dashboard', objectId: row.id }), async (tx) =>
        store.insertDashboard(tx, { ...owned, slug: await freeSlug(tx, owned.orgId, owned.name) }))
    } catch (error) {
      if ((error as { code?: string }).code !== '23505' || attempt >= 5) throw error
    }
  }
}

/** A view of the dashboard, by its page or the API: it feeds the caller's recent list and the audit log. */
export async function recordDashboardView(deps: Deps, principal: Principal, id: number): Promise<void> {
  await recordAudit(deps.sql, principal, { action: 'view', objectType: 'dashboard', objectId: id })
}

/** GET /api/dashboards/{id}: the whole dashboard, and a view counted. */
export async function getDashboard(deps: Deps, principal: Principal, row: store.DashboardRow): Promise<DashboardJson> {
  const json = await dashboardDetails(deps, principal, row)
  await recordDashboardView(deps, principal, row.id)
  return json
}

/** POST /api/dashboards {name}: a new draft of the caller's, with no widgets (reference §7.1: `widgets` null). */
export async function createDashboard(deps: Deps, principal: Principal, body: unknown) {
  requireRight(dashboardPolicy(principal).create)
  const { name } = parseCreateDashboard(body)
  const row = await insertWithSlug(deps, principal, { name })
  const users = await usersByIds(deps.sql, principal.orgId, [row.user_id])
  return dashboardJson(row, users, null, { visualizations: new Map(), queries: new Map(), users }, { isFavorite: false, canEdit: true })
}

/** What an update writes: a blank name is ignored (spec 2 §5), tags cleaned as everywhere. */
function changesOf(input: DashboardUpdate): store.DashboardChanges {
  return {
    name: input.name || undefined,
    layout: input.layout,
    dashboard_filters_enabled: input.dashboard_filters_enabled,
    options: input.options,
    tags: input.tags === undefined ? undefined : cleanTags(input.tags),
    is_draft: input.is_draft,
    is_archived: input.is_archived,
  }
}

/**
 * POST /api/dashboards/{id}: edit rights; a `version` other than the stored one is refused with 409. An archived
 * dashboard only takes its unarchiving (spec 2 §6: editing needs it unarchived).
 */
export async function updateDashboard(deps: Deps, principal: Principal, id: number, body: unknown): Promise<DashboardJson> {
  const input = parseUpdateDashboard(body)
  const row = await getDashboardRow(deps, principal, id)
  await requireEditDashboard(deps.sql, principal, row)
  const changes = changesOf(input)
  await deps.sql.begin(async (tx) => {
    const current = await store.lockDashboard(tx, row.id)
    if (input.version != null && input.version !== current.version) throw new Conflict(dashboardTexts.conflict)
    const changesContent = Object.entries(changes).some(([key, value]) => value !== undefined && key !== 'is_archived')
    if (current.is_archived && input.is_archived !== false && changesContent) throw new BadRequest(dashboardTexts.archived)
    await store.updateDashboard(tx, row.id, changes)
    const action = input.is_archived === true && !current.is_archived ? 'archive' : 'edit'
    await recordAudit(tx, principal, { action, objectType: 'dashboard', objectId: row.id })
  })
  // its public page shows the change at once here (the other processes hear the dashboard's trigger)
  deps.bus.evict('share', row.id)
  return dashboardDetails(deps, principal, await getDashboardRow(deps, principal, id))
}

/** DELETE /api/dashboards/{id}: archives it (reference §7.1), answering the archived dashboard. */
export async function archiveDashboard(deps: Deps, principal: Principal, id: number): Promise<DashboardJson> {
  return updateDashboard(deps, principal, id, { is_archived: true })
}

/** The fork's answer: the copy, and how many widgets were left out because their query is hidden from its maker. */
export type ForkJson = DashboardJson & { skipped_widgets: number; message?: string }

/**
 * POST /api/dashboards/{id}/fork: a draft copy of the caller's, named "Copy of (#id) name", with the same tags,
 * filters setting and options, its text boxes, and the charts whose query the caller may see. A chart they may not
 * see is left out rather than copied restricted: the copy is theirs to share, and must not carry what they cannot
 * read (`skipped_widgets` and `message` say how many were left out). The answer shows the copied widgets as the
 * caller sees them.
 */
export async function forkDashboard(deps: Deps, principal: Principal, id: number): Promise<ForkJson> {
  requireRight(dashboardPolicy(principal).create)
  const source = await getDashboardRow(deps, principal, id)
  const widgets = await listDashboardWidgets(deps.sql, viewerOf(principal), source.id)
  const kept = widgets.filter((w) => w.visible).map((w) => w.id)
  const name = `Copy of (#${source.id}) ${source.name}`.slice(0, LIMITS.name)
  const copy = await insertWithSlug(deps, principal, {
    name, layout: source.layout,
    dashboardFiltersEnabled: source.dashboard_filters_enabled, options: source.options, tags: source.tags,
  })
  await copyWidgets(deps.sql, source.id, kept, copy.id)
  const skipped = widgets.length - kept.length
  const details = await dashboardDetails(deps, principal, copy)
  return skipped ? { ...details, skipped_widgets: skipped, message: forkTexts.skipped(skipped) } : { ...details, skipped_widgets: 0 }
}

/** The list endpoints: all, my and favorites, with search, tags, paging and order. */
export async function listDashboards(
  deps: Deps, principal: Principal, kind: DashboardListKind, query: Record<string, string | undefined>, tags: string[],
) {
  requireRight(dashboardPolicy(principal).view)
  const params = parseDashboardListParams(query, tags)
  // without edit_dashboard no dashboard is the caller's to change
  if (params.editable && !allowed(principal, 'edit_dashboard')) return { count: 0, page: params.page, page_size: params.pageSize, results: [] }
  const page = await findDashboardPage(deps.sql, await listViewer(deps.sql, principal), kind, params)
  const users = await usersByIds(deps.sql, principal.orgId, page.rows.map((r) => r.user_id))
  return { count: page.count, page: page.page, page_size: params.pageSize, results: page.rows.map((r) => dashboardListItemJson(r, users)) }
}

/** GET /api/dashboards/recent: the dashboards the caller opened last, as a plain list. */
export async function recentDashboards(deps: Deps, principal: Principal) {
  requireRight(dashboardPolicy(principal).view)
  const rows = await findRecentlyViewed(deps.sql, await listViewer(deps.sql, principal), RECENT_LIMIT)
  const users = await usersByIds(deps.sql, principal.orgId, rows.map((r) => r.user_id))
  return rows.map((r) => dashboardListItemJson(r, users))
}

/** GET /api/dashboards/tags: `{tags: [{name, count}]}` over the dashboards the caller is listed. */
export async function dashboardTags(deps: Deps, principal: Principal) {
  requireRight(dashboardPolicy(principal).view)
  return { tags: await dashboardTagCounts(deps.sql, await listViewer(deps.sql, principal)) }
}

/** POST/DELETE /api/dashboards/{id}/favorite. */
export async function setDashboardFavorite(deps: Deps, principal: Principal, id: number, favorite: boolean) {
  const row = await getDashboardRow(deps, principal, id)
  await setFavorite(deps, principal, 'dashboards', row.id, favorite)
}
