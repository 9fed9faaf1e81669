import { ADVISORY_LOCK } from '../db/index.ts'
import type { Db } from '../db/index.ts'

export interface DataSourceRow {
  id: number
  org_id: number
  name: string
  type: string
  options: Record<string, unknown>
  secrets: string | null
  paused: boolean
  pause_reason: string | null
  created_at: Date
  updated_at: Date
}

/** A source with the caller's access: view_only is true when every group that grants it is view-only. */
export interface AccessibleDataSourceRow extends DataSourceRow {
  view_only: boolean
}

export async function listAll(db: Db, orgId: number): Promise<AccessibleDataSourceRow[]> {
  return db<AccessibleDataSourceRow[]>`select *, false as view_only from data_sources where org_id = ${orgId} order by name, id`
}

export async function listForGroups(db: Db, orgId: number, groupIds: number[]): Promise<AccessibleDataSourceRow[]> {
  return db<AccessibleDataSourceRow[]>`
    select d.*, bool_and(g.view_only) as view_only
    from data_sources d join data_source_groups g on g.data_source_id = d.id
    where d.org_id = ${orgId} and g.group_id = any(${groupIds})
    group by d.id order by d.name, d.id`
}

export async function findById(db: Db, orgId: number, id: number): Promise<DataSourceRow | undefined> {
  const [row] = await db<DataSourceRow[]>`select * from data_sources where id = ${id} and org_id = ${orgId}`
  return row
}

/** A source and the groups that may use it (any organization's: the caller checks), in one statement. */
export async function findWithGrants(db: Db, id: number): Promise<{ row: DataSourceRow; grants: { groupId: number; viewOnly: boolean }[] } | undefined> {
  const [found] = await db<(DataSourceRow & { grants: { groupId: number; viewOnly: boolean }[] })[]>`
    select d.*, coalesce((select json_agg(json_build_object('groupId', g.group_id, 'viewOnly', g.view_only))
                            from data_source_groups g where g.data_source_id = d.id), '[]') as grants
      from data_sources d where d.id = ${id}`
  if (!found) return undefined
  const { grants, ...row } = found
  return { row: row as DataSourceRow, grants }
}

/** How many of these sources at least one of the groups may read (view-only counts). */
export async function readableCount(db: Db, dataSourceIds: number[], groupIds: number[]): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(distinct data_source_id)::int as n from data_source_groups
     where data_source_id = any(${dataSourceIds}::bigint[]) and group_id = any(${groupIds}::bigint[])`
  return row.n
}

/** The caller's access to one source through their groups: undefined when none of their groups has it. */
export async function accessThroughGroups(db: Db, dataSourceId: number, groupIds: number[]): Promise<{ view_only: boolean } | undefined> {
  const [row] = await db<{ view_only: boolean | null }[]>`
    select bool_and(view_only) as view_only from data_source_groups
    where data_source_id = ${dataSourceId} and group_id = any(${groupIds})`
  return row.view_only === null ? undefined : { view_only: row.view_only }
}

export async function nameTaken(db: Db, orgId: number, name: string, exceptId = 0): Promise<boolean> {
  const [row] = await db`select 1 from data_sources where org_id = ${orgId} and lower(name) = lower(${name}) and id <> ${exceptId}`
  return !!row
}

export async function insert(
  db: Db, d: { orgId: number; name: string; type: string; options: Record<string, unknown>; secrets: string | null },
): Promise<DataSourceRow> {
  const [row] = await db<DataSourceRow[]>`
    insert into data_sources (org_id, name, type, options, secrets)
    values (${d.orgId}, ${d.name}, ${d.type}, ${db.json(d.options as never)}, ${d.secrets}) returning *`
  return row
}

export async function update(
  db: Db, id: number, d: { name: string; type: string; options: Record<string, unknown>; secrets: string | null },
): Promise<DataSourceRow> {
  const [row] = await db<DataSourceRow[]>`
    update data_sources set name = ${d.name}, type = ${d.type}, options = ${db.json(d.options as never)},
      secrets = ${d.secrets}, updated_at = now()
    where id = ${id} returning *`
  return row
}

export async function remove(db: Db, id: number) {
  await db`delete from data_sources where id = ${id}`
}

export async function addToGroup(db: Db, dataSourceId: number, groupId: number, viewOnly = false) {
  await db`
    insert into data_source_groups (data_source_id, group_id, view_only) values (${dataSourceId}, ${groupId}, ${viewOnly})
    on conflict (data_source_id, group_id) do nothing`
}

export async function setGroupViewOnly(db: Db, dataSourceId: number, groupId: number, viewOnly: boolean): Promise<boolean> {
  const rows = await db`update data_source_groups set view_only = ${viewOnly} where data_source_id = ${dataSourceId} and group_id = ${groupId}`
  return rows.count > 0
}

export async function removeFromGroup(db: Db, dataSourceId: number, groupId: number) {
  await db`delete from data_source_groups where data_source_id = ${dataSourceId} and group_id = ${groupId}`
}

export async function listForGroup(db: Db, orgId: number, groupId: number): Promise<AccessibleDataSourceRow[]> {
  return db<AccessibleDataSourceRow[]>`
    select d.*, g.view_only from data_sources d join data_source_groups g on g.data_source_id = d.id
    where d.org_id = ${orgId} and g.group_id = ${groupId} order by d.name, d.id`
}

export interface SchemaCacheRow {
  schema_json: string
  refreshed_at: Date
}

export async function findSchema(db: Db, dataSourceId: number): Promise<SchemaCacheRow | undefined> {
  const [row] = await db<SchemaCacheRow[]>`select schema_json, refreshed_at from data_source_schemas where data_source_id = ${dataSourceId}`
  return row
}

export async function saveSchema(db: Db, dataSourceId: number, schemaJson: string, tableCount: number) {
  await db`
    insert into data_source_schemas (data_source_id, schema_json, table_count) values (${dataSourceId}, ${schemaJson}, ${tableCount})
    on conflict (data_source_id) do update set schema_json = excluded.schema_json, table_count = excluded.table_count, refreshed_at = now()`
}

/** Gives the organization's built-in "default" group full access to a new source (every member sees it). */
export async function addToDefaultGroup(db: Db, orgId: number, dataSourceId: number) {
  await db`
    insert into data_source_groups (data_source_id, group_id, view_only)
    select ${dataSourceId}, id, false from groups where org_id = ${orgId} and type = 'builtin' and name = 'default'
    on conflict (data_source_id, group_id) do nothing`
}

/** Serializes schema refresh requests for one source until the caller's transaction ends. */
export async function lockSchemaRefresh(db: Db, dataSourceId: number) {
  await db`select pg_advisory_xact_lock(${ADVISORY_LOCK.schemaRefresh}::int, ${dataSourceId}::int)`
}
