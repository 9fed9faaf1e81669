import type { Db } from '../db/index.ts'
import { sourcesReadable } from '../results/index.ts'
import type { StoredApiKey } from '../credentials/index.ts'
import type { Schedule } from '../schedules/index.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'

/** `queries.options`: the server reads `parameters` and `apply_auto_limit`; the rest belongs to the browser. */
export interface QueryOptions {
  parameters?: ParameterDefinition[]
  apply_auto_limit?: boolean
  [key: string]: unknown
}

export interface QueryRow {
  id: number
  org_id: number
  data_source_id: number | null
  /** The engine type of its source (null when the source was deleted), for the auto-limit part of the hash. */
  data_source_type: string | null
  user_id: number
  last_modified_by_id: number | null
  name: string
  description: string | null
  query: string
  query_hash: string
  /** The query's API key is kept as its sha-256 and a sealed copy for display (src/credentials/api-keys.ts). */
  api_key_hash: Buffer
  api_key_sealed: string | null
  is_draft: boolean
  is_archived: boolean
  schedule: Schedule | null
  schedule_failures: number
  schedule_next_at: Date | null
  options: QueryOptions
  tags: string[]
  version: number
  latest_query_data_id: number | null
  created_at: Date
  updated_at: Date
  /** Of the latest result, null without one. */
  retrieved_at: Date | null
  runtime: number | null
}

/** A query as shown: with its API key opened for those who may hold it (decision 0025), else null. */
export type Shown<T extends QueryRow> = T & { api_key: string | null }

/** A query with the caller's access to it: view_only when every group that grants its source is view-only. */
export interface AccessibleQueryRow extends QueryRow {
  view_only: boolean
}

/** Who is looking, as plain data: which queries they see depends only on these. */
export interface Viewer {
  orgId: number
  userId: number
  groupIds: number[]
  admin: boolean
  /** A member's readable sources, when looked up once for the request (`listViewer`): lists filter on them directly. */
  readable?: ReadableSources
}

export interface ReadableSources {
  /** The sources of the member's groups, view-only ones included. */
  sourceIds: number[]
  /** Whether the member owns queries whose source was deleted (which they still see). */
  ownWithoutSource: boolean
}

export const queryColumns = (db: Db) => db`
  q.id, q.org_id, q.data_source_id, d.type as data_source_type, q.user_id, q.last_modified_by_id, q.name, q.description,
  q.query, q.query_hash, q.api_key_hash, q.api_key_sealed, q.is_draft, q.is_archived, q.schedule, q.schedule_failures, q.schedule_next_at,
  q.options, q.tags, q.version, q.latest_query_data_id, q.created_at, q.updated_at, r.retrieved_at, r.runtime`

export const queryTables = (db: Db) => db`
  queries q
  left join data_sources d on d.id = q.data_source_id
  left join query_results r on r.id = q.latest_query_data_id`

/**
 * The sources a member reads through their groups: the ids looked up for this request, else an uncorrelated
 * subquery (PostgreSQL computes it once per statement), so a list filters on `data_source_id` over its own index
 * instead of probing the groups for every query.
 */
export const readableSources = (db: Db, v: Viewer) => v.readable
  ? db`${v.readable.sourceIds}::bigint[]`
  : db`array(select g.data_source_id from data_source_groups g where g.group_id = any(${v.groupIds}::bigint[]))`

/**
 * The viewer with their readable sources looked up, for the lists: with the ids as constants PostgreSQL counts a
 * member's queries on an index of `(org_id, is_archived, data_source_id)` alone, and the rule for queries whose
 * source was deleted (an OR that stops any index) is left out when the member owns none.
 */
export async function withReadableSources(db: Db, v: Viewer): Promise<Viewer> {
  if (v.admin || v.readable) return v
  const [row] = await db<{ ids: number[]; orphans: boolean }[]>`
    select array(select distinct g.data_source_id from data_source_groups g where g.group_id = any(${v.groupIds}::bigint[])) as ids,
           exists(select 1 from queries q where q.user_id = ${v.userId} and q.data_source_id is null and q.org_id = ${v.orgId}) as orphans`
  return { ...v, readable: { sourceIds: row.ids.map(Number), ownWithoutSource: row.orphans } }
}

/**
 * The queries a viewer may see: admins all of the organization's; others those whose source is in one of their
 * groups (view-only included), and their own queries whose source was deleted.
 */
export function visibleTo(db: Db, v: Viewer) {
  if (v.admin) return db`q.org_id = ${v.orgId}`
  const bySource = db`q.data_source_id = any(${readableSources(db, v)})`
  if (v.readable && !v.readable.ownWithoutSource) return db`q.org_id = ${v.orgId} and ${bySource}`
  return db`q.org_id = ${v.orgId} and (${bySource} or (q.data_source_id is null and q.user_id = ${v.userId}))`
}

/** One query the viewer may see, with their access level; undefined for others and for other organizations. */
export async function findVisible(db: Db, v: Viewer, id: number): Promise<AccessibleQueryRow | undefined> {
  const [row] = await db<AccessibleQueryRow[]>`
    select ${queryColumns(db)},
      coalesce(not ${v.admin} and (
        select bool_and(g.view_only) from data_source_groups g
        where g.data_source_id = q.data_source_id and g.group_id = any(${v.groupIds}::bigint[])), false) as view_only
    from ${queryTables(db)}
    where q.id = ${id} and ${visibleTo(db, v)}`
  return row
}

/** Any query by id, whoever asks (for query API keys, which are checked by the caller). */
export async function findById(db: Db, id: number): Promise<QueryRow | undefined> {
  const [row] = await db<QueryRow[]>`select ${queryColumns(db)} from ${queryTables(db)} where q.id = ${id}`
  return row
}

/** The query's current state, locked until the transaction ends: concurrent saves queue here and see each other. */
export async function lockForSave(db: Db, id: number): Promise<QueryRow> {
  const [row] = await db<QueryRow[]>`select ${queryColumns(db)} from ${queryTables(db)} where q.id = ${id} for update of q`
  return row
}

/** The fields a save writes. */
export interface QueryFields {
  name: string
  description: string | null
  query: string
  query_hash: string
  data_source_id: number | null
  options: QueryOptions
  schedule: Schedule | null
  tags: string[]
  is_draft: boolean
  latest_query_data_id: number | null
}

const jsonOrNull = (db: Db, value: unknown) => (value === null ? null : db.json(value as never))

export async function insertQuery(db: Db, q: QueryFields & { orgId: number; userId: number; apiKey: StoredApiKey }): Promise<number> {
  const [{ id }] = await db<{ id: number }[]>`
    insert into queries (org_id, user_id, last_modified_by_id, api_key_hash, api_key_sealed, name, description, query, query_hash,
      data_source_id, options, schedule, tags, is_draft, latest_query_data_id)
    values (${q.orgId}, ${q.userId}, ${q.userId}, ${q.apiKey.hash}, ${q.apiKey.sealed}, ${q.name}, ${q.description}, ${q.query}, ${q.query_hash},
      ${q.data_source_id}, ${db.json(q.options as never)}, ${jsonOrNull(db, q.schedule)}, ${q.tags}::text[], ${q.is_draft},
      ${q.latest_query_data_id})
    returning id`
  return id
}

/**
 * Write a save: every save is a new version. A changed schedule forgets its next run time, which the scheduler
 * works out again from the new schedule.
 */
export async function updateQuery(
  db: Db, id: number, q: QueryFields & { isArchived: boolean; scheduleChanged: boolean; modifiedBy: number },
): Promise<number> {
  const [{ version }] = await db<{ version: number }[]>`
    update queries set
      name = ${q.name}, description = ${q.description}, query = ${q.query}, query_hash = ${q.query_hash},
      data_source_id = ${q.data_source_id}, options = ${db.json(q.options as never)}, schedule = ${jsonOrNull(db, q.schedule)},
      schedule_next_at = case when ${q.scheduleChanged} then null else schedule_next_at end,
      tags = ${q.tags}::text[], is_draft = ${q.is_draft}, is_archived = ${q.isArchived},
      latest_query_data_id = ${q.latest_query_data_id}, last_modified_by_id = ${q.modifiedBy},
      version = version + 1, updated_at = now()
    where id = ${id}
    returning version`
  return version
}

/**
 * Archive a query (spec 2 §4): it leaves the lists and stops refreshing. What is built on the query (its alerts, the
 * dashboard widgets that show its visualizations) is removed by those features' subscribers to `queryArchived`
 * (./archived.ts), in the same transaction, so this store never names their tables.
 */
export async function archive(db: Db, id: number) {
  await db`
    update queries set is_archived = true, schedule = null, schedule_next_at = null, updated_at = now()
    where id = ${id}`
}

export async function setApiKey(db: Db, id: number, key: StoredApiKey) {
  await db`update queries set api_key_hash = ${key.hash}, api_key_sealed = ${key.sealed}, updated_at = now() where id = ${id}`
}

/** Query keys still in plain text from before migration 0010, a batch at a time (src/seal-legacy-keys.ts). */
export async function legacyPlainQueryKeys(db: Db, limit: number): Promise<{ id: number; key: string }[]> {
  return db<{ id: number; key: string }[]>`
    select id, legacy_plain_key as key from queries where legacy_plain_key is not null order by id limit ${limit}`
}

/** Keep the sealed copy and forget the plain one (several processes may do this at once: the same key either way). */
export async function sealLegacyQueryKeys(db: Db, keys: { id: number; sealed: string }[]) {
  if (!keys.length) return
  await db`
    update queries q set api_key_sealed = v.sealed, legacy_plain_key = null
    from unnest(${keys.map((k) => k.id)}::bigint[], ${keys.map((k) => k.sealed)}::text[]) as v(id, sealed)
    where q.id = v.id and q.legacy_plain_key is not null`
}

/** The newest stored result of this text on this source: a new or changed query shows it at once. */
export async function newestResultId(db: Db, orgId: number, dataSourceId: number, queryHash: string): Promise<number | null> {
  const [row] = await db<{ id: number }[]>`
    select id from query_results
    where org_id = ${orgId} and data_source_id = ${dataSourceId} and query_hash = ${queryHash}
    order by retrieved_at desc limit 1`
  return row?.id ?? null
}

export async function resultOfSource(db: Db, orgId: number, resultId: number, dataSourceId: number): Promise<boolean> {
  const [row] = await db`select 1 from query_results where id = ${resultId} and org_id = ${orgId} and data_source_id = ${dataSourceId}`
  return !!row
}

/** Which of these query ids the viewer may see (dropdown parameters may only point at those). */
export async function visibleIds(db: Db, v: Viewer, ids: number[]): Promise<number[]> {
  if (!ids.length) return []
  const rows = await db<{ id: number }[]>`select q.id from queries q where q.id = any(${ids}::bigint[]) and ${visibleTo(db, v)}`
  return rows.map((r) => r.id)
}

/** Which of these ids are queries of the organization, whoever may see them. */
export async function existingIds(db: Db, orgId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return []
  const rows = await db<{ id: number }[]>`select q.id from queries q where q.id = any(${ids}::bigint[]) and q.org_id = ${orgId}`
  return rows.map((r) => r.id)
}

export interface VisualizationRow {
  id: number
  query_id: number
  type: string
  name: string
  description: string
  options: Record<string, unknown>
  created_at: Date
  updated_at: Date
}

export async function insertVisualization(
  db: Db, queryId: number, v: { type: string; name: string; description: string; options: Record<string, unknown> },
): Promise<VisualizationRow> {
  const [row] = await db<VisualizationRow[]>`
    insert into visualizations (query_id, type, name, description, options)
    values (${queryId}, ${v.type}, ${v.name}, ${v.description}, ${db.json(v.options as never)})
    returning *`
  return row
}

/** A fork gets copies of every visualization, in their original order. */
export async function copyVisualizations(db: Db, fromQueryId: number, toQueryId: number) {
  await db`
    insert into visualizations (query_id, type, name, description, options)
    select ${toQueryId}, type, name, description, options from visualizations where query_id = ${fromQueryId} order by id`
}

export async function listVisualizations(db: Db, queryId: number): Promise<VisualizationRow[]> {
  return db<VisualizationRow[]>`select * from visualizations where query_id = ${queryId} order by id`
}

export interface QueryVersionRow {
  query_id: number
  version: number
  user_id: number | null
  name: string
  description: string | null
  query: string
  data_source_id: number | null
  options: QueryOptions
  tags: string[]
  schedule: Schedule | null
  created_at: Date
}

/** Keep the query's state as just written, under its current version number. */
export async function insertVersion(db: Db, queryId: number, userId: number) {
  await db`
    insert into query_versions (query_id, version, user_id, name, description, query, data_source_id, options, tags, schedule)
    select id, version, ${userId}, name, description, query, data_source_id, options, tags, schedule
    from queries where id = ${queryId}`
}

export async function listVersions(db: Db, queryId: number): Promise<QueryVersionRow[]> {
  return db<QueryVersionRow[]>`select * from query_versions where query_id = ${queryId} order by version desc`
}

export async function findVersion(db: Db, queryId: number, version: number): Promise<QueryVersionRow | undefined> {
  const [row] = await db<QueryVersionRow[]>`select * from query_versions where query_id = ${queryId} and version = ${version}`
  return row
}

export async function dataSourceExists(db: Db, orgId: number, id: number): Promise<boolean> {
  const [row] = await db`select 1 from data_sources where id = ${id} and org_id = ${orgId}`
  return !!row
}

/** The organization's queries with these ids (what a dashboard's widgets show); the caller has decided who sees them. */
export async function findByIds(db: Db, orgId: number, ids: number[]): Promise<QueryRow[]> {
  if (!ids.length) return []
  return db<QueryRow[]>`select ${queryColumns(db)} from ${queryTables(db)} where q.id = any(${ids}::bigint[]) and q.org_id = ${orgId}`
}

/**
 * The newest `limit` queries the viewer may reference from a Query Results source, each with the columns of its
 * latest result when the viewer may read that result (a Query Results result: every source it read), else null.
 */
export async function referenceableQueries(db: Db, v: Viewer, limit: number) {
  return db<{ id: number; name: string; columns: { name: string; type: string | null }[] | null }[]>`
    select q.id, q.name, case when ${sourcesReadable(db, v, 'r')} then r.columns end as columns
      from ${queryTables(db)}
     where ${visibleTo(db, v)} and not q.is_archived
     order by q.id desc
     limit ${limit}`
}
