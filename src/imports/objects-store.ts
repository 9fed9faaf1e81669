import type { Db } from '../db/index.ts'

/**
 * The importer's writes to Sightline's own tables: every object written with the owner, times and version the old
 * instance gave it, under an id reserved before (so references between objects are known before any is written).
 */
type Row = Record<string, unknown>

export const IMPORTED_TABLES = ['users', 'groups', 'data_sources', 'queries', 'visualizations', 'dashboards', 'widgets',
  'alerts', 'destinations', 'query_snippets'] as const
export type ImportedTable = (typeof IMPORTED_TABLES)[number]

/** Which of these ids still name a row (an object deleted in Sightline since the last run is written again). */
export async function existingIds(db: Db, table: ImportedTable, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set()
  const rows = await db<{ id: number }[]>`select id from ${db(table)} where id = any(${ids}::bigint[])`
  return new Set(rows.map((r) => Number(r.id)))
}

/** Ids of the organization's objects of a kind (for "the target is empty" and keep-ids clashes). */
export async function countRows(db: Db, table: 'queries' | 'dashboards' | 'alerts', orgId: number): Promise<number> {
  const [{ n }] = await db<{ n: number }[]>`select count(*)::int as n from ${db(table)} where org_id = ${orgId}`
  return n
}

/** `n` new ids from the table's own sequence. */
export async function reserveIds(db: Db, table: ImportedTable, n: number): Promise<number[]> {
  if (n <= 0) return []
  const rows = await db<{ id: string }[]>`
    select nextval(pg_get_serial_sequence(${table}, 'id'))::text as id from generate_series(1, ${n})`
  return rows.map((r) => Number(r.id))
}

/** After ids were written as given (kept ids), the sequence moves past them so new objects never collide. */
export async function bumpSequence(db: Db, table: ImportedTable) {
  await db`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${db(table)}), 1))`
}

/** Insert with the id reserved (or kept), or update the row of that id: one statement either way. */
async function upsert(db: Db, table: ImportedTable, row: Row, exists: boolean, keep: string[] = []) {
  const values = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, jsonValue(db, k, v)]))
  if (exists) {
    const { id, ...rest } = values
    for (const k of keep) delete rest[k]
    await db`update ${db(table)} set ${db(rest)} where id = ${id as number}`
  } else {
    await db`insert into ${db(table)} (${db(Object.keys(values))}) overriding system value values ${db(values)}`
  }
}

/** The text-array columns; every other object or array goes in as JSON. */
const TEXT_ARRAYS = new Set(['tags', 'permissions'])

function jsonValue(db: Db, key: string, v: unknown) {
  if (v === null || v === undefined || v instanceof Date || v instanceof Buffer) return v ?? null
  if (TEXT_ARRAYS.has(key)) return db.array(v as string[], 25)
  if (typeof v === 'object') return db.json(v as never)
  return v
}

export const writeRow = (db: Db, table: ImportedTable, row: Row, exists: boolean, keep: string[] = []) => upsert(db, table, row, exists, keep)

/** Rows per statement when writing in bulk (well under PostgreSQL's 65,535 parameters for every table here). */
const CHUNK = 500

/**
 * Many rows of one table in a few statements: each inserted under its id, or, when a row of that id is there (an
 * earlier run's), updated in place, except the columns in `keep`. Every row has the same columns.
 */
export async function upsertRows(db: Db, table: ImportedTable, rows: Row[], keep: string[] = []) {
  if (!rows.length) return
  const columns = Object.keys(rows[0])
  // column names are this module's own, never input
  const updates = columns.filter((c) => c !== 'id' && !keep.includes(c)).map((c) => `"${c}" = excluded."${c}"`).join(', ')
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows.slice(i, i + CHUNK).map((r) => columns.map((c) => jsonValue(db, c, r[c])))
    await db`
      insert into ${db(table)} (${db(columns)}) overriding system value values ${db(values as never)}
      on conflict (id) do update set ${db.unsafe(updates)}`
  }
}

/** The organization's users by e-mail (matched case-insensitively, as sign-in does). */
export async function usersByEmail(db: Db, orgId: number): Promise<Map<string, number>> {
  const rows = await db<{ id: number; email: string }[]>`select id, email from users where org_id = ${orgId}`
  return new Map(rows.map((r) => [r.email.toLowerCase(), Number(r.id)]))
}

export async function groupsByName(db: Db, orgId: number): Promise<Map<string, { id: number; type: string }>> {
  const rows = await db<{ id: number; name: string; type: string }[]>`select id, name, type from groups where org_id = ${orgId}`
  return new Map(rows.map((r) => [r.name.toLowerCase(), { id: Number(r.id), type: r.type }]))
}

export async function namesOf(db: Db, table: 'data_sources' | 'destinations', orgId: number): Promise<Map<string, number>> {
  const rows = await db<{ id: number; name: string }[]>`select id, name from ${db(table)} where org_id = ${orgId}`
  return new Map(rows.map((r) => [r.name, Number(r.id)]))
}

export async function snippetTriggers(db: Db, orgId: number): Promise<Map<string, number>> {
  const rows = await db<{ id: number; trigger: string }[]>`select id, trigger from query_snippets where org_id = ${orgId}`
  return new Map(rows.map((r) => [r.trigger, Number(r.id)]))
}

export async function dashboardSlugs(db: Db, orgId: number): Promise<Map<string, number>> {
  const rows = await db<{ id: number; slug: string }[]>`select id, slug from dashboards where org_id = ${orgId}`
  return new Map(rows.map((r) => [r.slug, Number(r.id)]))
}

export async function addMembers(db: Db, rows: { user_id: number; group_id: number }[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    await db`insert into user_groups ${db(rows.slice(i, i + 1000), 'user_id', 'group_id')} on conflict do nothing`
  }
}

export async function grantSource(db: Db, r: { data_source_id: number; group_id: number; view_only: boolean }) {
  await db`
    insert into data_source_groups (data_source_id, group_id, view_only) values (${r.data_source_id}, ${r.group_id}, ${r.view_only})
    on conflict (data_source_id, group_id) do update set view_only = excluded.view_only`
}

export interface QueryVersion {
  query_id: number; version: number; user_id: number | null; name: string; description: string | null; query: string
  data_source_id: number | null; options: unknown; tags: string[]; schedule: unknown; created_at: Date
}

const VERSION_COLUMNS = ['query_id', 'version', 'user_id', 'name', 'description', 'query', 'data_source_id', 'options', 'tags', 'schedule', 'created_at'] as const

/** The version rows of imported queries (each one's history starts at the version the old instance had). */
export async function writeQueryVersions(db: Db, versions: QueryVersion[]) {
  for (let i = 0; i < versions.length; i += CHUNK) {
    const values = versions.slice(i, i + CHUNK).map((v) => VERSION_COLUMNS.map((c) => jsonValue(db, c, v[c])))
    await db`
      insert into query_versions (${db([...VERSION_COLUMNS])}) values ${db(values as never)}
      on conflict (query_id, version) do update set name = excluded.name, description = excluded.description, query = excluded.query,
        data_source_id = excluded.data_source_id, options = excluded.options, tags = excluded.tags, schedule = excluded.schedule`
  }
}

export async function grantEdit(db: Db, g: { object_type: 'query' | 'dashboard'; object_id: number; grantor_id: number | null; grantee_id: number }) {
  await db`
    insert into access_permissions (object_type, object_id, access_type, grantor_id, grantee_id)
    values (${g.object_type}, ${g.object_id}, 'modify', ${g.grantor_id}, ${g.grantee_id}) on conflict do nothing`
}

/** A user's key, unless the user has one already (a second run, or the admin who runs the import). */
export async function addUserKey(db: Db, k: { orgId: number; userId: number; hash: Buffer; sealed: string }): Promise<boolean> {
  const rows = await db`
    insert into api_keys (org_id, key_hash, key_sealed, user_id, created_by)
    select ${k.orgId}, ${k.hash}, ${k.sealed}, ${k.userId}, ${k.userId}
    where not exists (select 1 from api_keys where user_id = ${k.userId} and active)
    on conflict do nothing returning id`
  return rows.length > 0
}

/** A dashboard's live share token, unless it has one. */
export async function addShareKey(db: Db, k: { orgId: number; dashboardId: number; createdBy: number; hash: Buffer; sealed: string }): Promise<boolean> {
  const rows = await db`
    insert into api_keys (org_id, object_type, object_id, created_by, key_hash, key_sealed)
    values (${k.orgId}, 'dashboards', ${k.dashboardId}, ${k.createdBy}, ${k.hash}, ${k.sealed})
    on conflict do nothing returning id`
  return rows.length > 0
}

/** Which query holds each of these key hashes (hex), to keep two queries from sharing a key. */
export async function queryKeyHolders(db: Db, hashes: Buffer[]): Promise<Map<string, number>> {
  if (!hashes.length) return new Map()
  const rows = await db<{ id: number; hash: string }[]>`
    select id, encode(api_key_hash, 'hex') as hash from queries
    where api_key_hash in (select decode(h, 'hex') from unnest(${hashes.map((h) => h.toString('hex'))}::text[]) h)`
  return new Map(rows.map((r) => [r.hash, Number(r.id)]))
}

export async function subscribe(db: Db, s: { alert_id: number; user_id: number; destination_id: number | null }) {
  await db`
    insert into alert_subscriptions (alert_id, user_id, destination_id) values (${s.alert_id}, ${s.user_id}, ${s.destination_id})
    on conflict do nothing`
}

export async function addFavorites(db: Db, rows: { user_id: number; object_type: 'query' | 'dashboard'; object_id: number }[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    await db`insert into favorites ${db(rows.slice(i, i + 1000), 'user_id', 'object_type', 'object_id')} on conflict do nothing`
  }
}

/** The queries a dashboard shows, with their sources: these are refreshed once the import is in. */
export async function dashboardQueries(db: Db, dashboardIds: number[]): Promise<number[]> {
  if (!dashboardIds.length) return []
  const rows = await db<{ id: number }[]>`
    select distinct v.query_id as id from widgets w join visualizations v on v.id = w.visualization_id
    join queries q on q.id = v.query_id
    where w.dashboard_id = any(${dashboardIds}::bigint[]) and not q.is_archived and q.data_source_id is not null`
  return rows.map((r) => Number(r.id))
}

/** What a first run of an imported query needs: its text, parameters, owner and source. */
export async function refreshableQuery(db: Db, id: number): Promise<{
  id: number; org_id: number; user_id: number; query: string; options: { parameters?: never[]; apply_auto_limit?: boolean }
  data_source_id: number | null; is_archived: boolean
} | undefined> {
  const [row] = await db<{ id: number; org_id: number; user_id: number; query: string; options: { parameters?: never[]; apply_auto_limit?: boolean }; data_source_id: number | null; is_archived: boolean }[]>`
    select id, org_id, user_id, query, options, data_source_id, is_archived from queries where id = ${id}`
  return row
}
