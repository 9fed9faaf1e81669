import type { Db } from '../db/index.ts'
import type { ReadableSources } from '../queries/index.ts'

/** `dashboards.options`: the browser's (saved dashboard parameters, their order …); the server only keeps it. */
export type DashboardOptions = Record<string, unknown>

export interface DashboardRow {
  id: number
  org_id: number
  user_id: number
  name: string
  slug: string
  layout: unknown[]
  dashboard_filters_enabled: boolean
  options: DashboardOptions
  tags: string[]
  is_draft: boolean
  is_archived: boolean
  version: number
  created_at: Date
  updated_at: Date
}

/** Who is looking, as plain data: which dashboards they are listed depends only on these. */
export interface DashboardViewer {
  orgId: number
  userId: number
  groupIds: number[]
  admin: boolean
  /** The rights a share token carries (its creator's): a token reads no Query Results query, whoever made it. */
  byToken?: boolean
  /** A member's readable sources, looked up once for a list (src/queries `listViewer`). */
  readable?: ReadableSources
}

export const dashboardColumns = (db: Db) => db`
  d.id, d.org_id, d.user_id, d.name, d.slug, d.layout, d.dashboard_filters_enabled, d.options, d.tags, d.is_draft,
  d.is_archived, d.version, d.created_at, d.updated_at`

/** Any dashboard of the organization, archived or not (everyone who may list dashboards may open one, reference §7.1). */
export async function findDashboard(db: Db, orgId: number, id: number): Promise<DashboardRow | undefined> {
  const [row] = await db<DashboardRow[]>`select ${dashboardColumns(db)} from dashboards d where d.id = ${id} and d.org_id = ${orgId}`
  return row
}

/** The dashboard a legacy address (`/dashboard/<slug>`) names. */
export async function findDashboardBySlug(db: Db, orgId: number, slug: string): Promise<DashboardRow | undefined> {
  const [row] = await db<DashboardRow[]>`select ${dashboardColumns(db)} from dashboards d where d.slug = ${slug} and d.org_id = ${orgId}`
  return row
}

/** The slugs already taken that start like `base`, to pick the next free one (`sales`, `sales_1`, `sales_2` …). */
export async function slugsLike(db: Db, orgId: number, base: string): Promise<Set<string>> {
  const pattern = base.replace(/[\\%_]/g, (c) => `\\${c}`) + '%'
  const rows = await db<{ slug: string }[]>`select slug from dashboards where org_id = ${orgId} and slug like ${pattern}`
  return new Set(rows.map((r) => r.slug))
}

export interface NewDashboard {
  orgId: number
  userId: number
  name: string
  slug: string
  layout?: unknown[]
  dashboardFiltersEnabled?: boolean
  options?: DashboardOptions
  tags?: string[]
}

export async function insertDashboard(db: Db, d: NewDashboard): Promise<DashboardRow> {
  const [row] = await db<DashboardRow[]>`
    with d as (insert into dashboards ${db({
      org_id: d.orgId, user_id: d.userId, name: d.name, slug: d.slug, layout: db.json((d.layout ?? []) as never),
      dashboard_filters_enabled: d.dashboardFiltersEnabled ?? false, options: db.json((d.options ?? {}) as never), tags: d.tags ?? [],
    })}
    returning *)
    select ${dashboardColumns(db)} from d`
  return row
}

/** The fields an update may change; absent ones stay. */
export interface DashboardChanges {
  name?: string
  layout?: unknown[]
  dashboard_filters_enabled?: boolean
  options?: DashboardOptions
  tags?: string[]
  is_draft?: boolean
  is_archived?: boolean
}

/** The dashboard's current state, locked until the transaction ends: concurrent saves queue here and see each other. */
export async function lockDashboard(db: Db, id: number): Promise<DashboardRow> {
  const [row] = await db<DashboardRow[]>`select ${dashboardColumns(db)} from dashboards d where d.id = ${id} for update`
  return row
}

/** Writes the changes and counts a new version. */
export async function updateDashboard(db: Db, id: number, c: DashboardChanges): Promise<void> {
  const json = (value: unknown) => db.json(value as never)
  await db`
    update dashboards set
      name = coalesce(${c.name ?? null}, name),
      layout = coalesce(${c.layout === undefined ? null : json(c.layout)}, layout),
      dashboard_filters_enabled = coalesce(${c.dashboard_filters_enabled ?? null}, dashboard_filters_enabled),
      options = coalesce(${c.options === undefined ? null : json(c.options)}, options),
      tags = coalesce(${c.tags ?? null}::text[], tags),
      is_draft = coalesce(${c.is_draft ?? null}, is_draft),
      is_archived = coalesce(${c.is_archived ?? null}, is_archived),
      version = version + 1,
      updated_at = now()
    where id = ${id}`
}

/** How many unarchived dashboards the organization has (the home page and the status page). */
export async function countDashboards(db: Db, orgId: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`select count(*)::int as n from dashboards where org_id = ${orgId} and not is_archived`
  return row.n
}
