import type { Db } from '../db/index.ts'
import type { StoredApiKey } from '../credentials/index.ts'
import { queryColumns, queryTables, type QueryRow } from '../queries/index.ts'
import { dashboardColumns, type DashboardRow } from './store.ts'

/** A dashboard's live share token as stored: its hash (how it is found) and its sealed copy (how it is shown again). */
export interface ShareKeyRow {
  id: number
  org_id: number
  object_id: number
  key_hash: Buffer
  key_sealed: string | null
}

const OBJECT_TYPE = 'dashboards'

/** The dashboard's live share token, if sharing is on. */
export async function findShareKey(db: Db, dashboardId: number): Promise<ShareKeyRow | undefined> {
  const [row] = await db<ShareKeyRow[]>`
    select id, org_id, object_id, key_hash, key_sealed from api_keys
    where object_type = ${OBJECT_TYPE} and object_id = ${dashboardId} and active`
  return row
}

/** A live token's dashboard, as one read finds it: the key's hash, the dashboard, and its organization's switch. */
export interface SharedDashboardRow {
  key_hash: Buffer
  /** The organization disabled public URLs (settings keep only values other than the defaults: absent is allowed). */
  public_urls_disabled: boolean
  /** Who turned sharing on: the token carries their rights (null once that user was deleted). */
  created_by: number | null
  dashboard: DashboardRow
}

/**
 * The live share token with this hash and its dashboard, in one read: the one way a token is found (its text is never
 * stored). Public pages and their scripts' calls start here, once per process until a change evicts what it found.
 */
export async function findSharedDashboard(db: Db, keyHash: Buffer): Promise<SharedDashboardRow | undefined> {
  const [row] = await db<(DashboardRow & { key_hash: Buffer; public_urls_disabled: boolean; created_by: number | null })[]>`
    select k.key_hash, k.created_by, coalesce((o.settings->>'disable_public_urls')::boolean, false) as public_urls_disabled, ${dashboardColumns(db)}
    from api_keys k join organizations o on o.id = k.org_id join dashboards d on d.id = k.object_id and d.org_id = k.org_id
    where k.key_hash = ${keyHash} and k.object_type = ${OBJECT_TYPE} and k.active`
  if (!row) return undefined
  const { key_hash, public_urls_disabled, created_by, ...dashboard } = row
  return { key_hash, public_urls_disabled, created_by, dashboard }
}

/** Whether the organization disabled public URLs (its `disable_public_urls` setting). */
export async function publicUrlsDisabled(db: Db, orgId: number): Promise<boolean> {
  const [row] = await db<{ disabled: boolean }[]>`
    select coalesce((settings->>'disable_public_urls')::boolean, false) as disabled from organizations where id = ${orgId}`
  return row?.disabled ?? false
}

/**
 * A new live token for the dashboard; when another request made one first (the partial unique index decides), that
 * one is answered instead, so racing "share" clicks agree on one address.
 */
export async function insertShareKey(db: Db, k: { orgId: number; dashboardId: number; createdBy: number; key: StoredApiKey }): Promise<ShareKeyRow> {
  const [row] = await db<ShareKeyRow[]>`
    insert into api_keys (org_id, object_type, object_id, created_by, key_hash, key_sealed)
    values (${k.orgId}, ${OBJECT_TYPE}, ${k.dashboardId}, ${k.createdBy}, ${k.key.hash}, ${k.key.sealed})
    on conflict (object_type, object_id) where object_type is not null and active do nothing
    returning id, org_id, object_id, key_hash, key_sealed`
  return row ?? (await findShareKey(db, k.dashboardId))!
}

/** Sharing off: the token stops working at once, and its sealed copy is forgotten (a revoked key is never shown). */
export async function deactivateShareKeys(db: Db, dashboardId: number): Promise<number> {
  const rows = await db`
    update api_keys set active = false, key_sealed = null, updated_at = now()
    where object_type = ${OBJECT_TYPE} and object_id = ${dashboardId} and active
    returning id`
  return rows.length
}

/** The query when a chart of the dashboard shows it and it is not archived: a token opens only its dashboard's queries. */
export async function findQueryShownBy(db: Db, dashboardId: number, queryId: number): Promise<QueryRow | undefined> {
  const [row] = await db<QueryRow[]>`
    select ${queryColumns(db)} from ${queryTables(db)}
    where q.id = ${queryId} and not q.is_archived and exists (
      select 1 from widgets w join visualizations z on z.id = w.visualization_id
      where w.dashboard_id = ${dashboardId} and z.query_id = q.id)`
  return row
}
