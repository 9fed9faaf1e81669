import type { Db } from '../db/index.ts'

/**
 * The SQL of the git export and of importing its files: one read of an organization's content (every kind, archived
 * queries and dashboards too, so a file brings one back), and the writes of objects that differ from their file.
 */
export type Json = Record<string, unknown>

export interface QueryState { id: number; key: string; name: string; description: string | null; query: string; is_draft: boolean; is_archived: boolean; schedule: Json | null; options: Json; tags: string[]; data_source_id: number | null; version: number }
export interface VisualizationState { id: number; query_id: number; type: string; name: string; description: string; options: Json }
export interface DashboardState { id: number; key: string; name: string; slug: string; tags: string[]; is_draft: boolean; is_archived: boolean; dashboard_filters_enabled: boolean; options: Json }
export interface WidgetState { id: number; dashboard_id: number; visualization_id: number | null; text: string; options: Json }
export interface AlertState { id: number; key: string; name: string; query_id: number; options: Json; rearm: number | null; check_interval: number | null }
export interface SubscriptionState { id: number; alert_id: number; destination_id: number | null; email: string }
export interface DestinationState { id: number; key: string; name: string; type: string; options: Json }
export interface SnippetState { id: number; key: string; trigger: string; description: string; snippet: string }
export interface GroupState { id: number; key: string; name: string; type: string; permissions: string[] }
export interface GroupSourceState { group_id: number; data_source_id: number; view_only: boolean }

export interface ContentState {
  queries: QueryState[]
  visualizations: VisualizationState[]
  dashboards: DashboardState[]
  widgets: WidgetState[]
  alerts: AlertState[]
  subscriptions: SubscriptionState[]
  destinations: DestinationState[]
  snippets: SnippetState[]
  groups: GroupState[]
  groupSources: GroupSourceState[]
  sources: { id: number; name: string; type: string }[]
  users: { id: number; email: string }[]
}

const ids = <T extends { id: unknown }>(rows: T[]) => rows.map((r) => ({ ...r, id: Number(r.id) }))

export async function readContent(db: Db, orgId: number): Promise<ContentState> {
  const [queries, visualizations, dashboards, widgets, alerts, subscriptions, destinations, snippets, groups, groupSources, sources, users] = await Promise.all([
    db<QueryState[]>`
      select id, key, name, description, query, is_draft, is_archived, schedule, options, tags, data_source_id::int, version
      from queries where org_id = ${orgId} order by id`,
    db<VisualizationState[]>`
      select v.id, v.query_id::int, v.type, v.name, v.description, v.options from visualizations v
      join queries q on q.id = v.query_id where q.org_id = ${orgId} order by v.query_id, v.id`,
    db<DashboardState[]>`
      select id, key, name, slug, tags, is_draft, is_archived, dashboard_filters_enabled, options from dashboards
      where org_id = ${orgId} order by id`,
    db<WidgetState[]>`
      select w.id, w.dashboard_id::int, w.visualization_id::int, w.text, w.options from widgets w
      join dashboards d on d.id = w.dashboard_id where d.org_id = ${orgId} order by w.dashboard_id, w.id`,
    db<AlertState[]>`select id, key, name, query_id::int, options, rearm, check_interval from alerts where org_id = ${orgId} order by id`,
    db<SubscriptionState[]>`
      select s.id, s.alert_id::int, s.destination_id::int, lower(u.email) as email from alert_subscriptions s
      join alerts a on a.id = s.alert_id join users u on u.id = s.user_id where a.org_id = ${orgId} order by s.id`,
    db<DestinationState[]>`select id, key, name, type, options from destinations where org_id = ${orgId} order by id`,
    db<SnippetState[]>`select id, key, trigger, description, snippet from query_snippets where org_id = ${orgId} order by id`,
    db<GroupState[]>`select id, key, name, type, permissions from groups where org_id = ${orgId} order by id`,
    db<GroupSourceState[]>`
      select g.group_id::int, g.data_source_id::int, g.view_only from data_source_groups g
      join data_sources s on s.id = g.data_source_id where s.org_id = ${orgId}`,
    db<{ id: number; name: string; type: string }[]>`select id, name, type from data_sources where org_id = ${orgId} order by id`,
    db<{ id: number; email: string }[]>`select id, lower(email) as email from users where org_id = ${orgId} order by id`,
  ])
  return {
    queries: ids(queries), visualizations: ids(visualizations), dashboards: ids(dashboards), widgets: ids(widgets), alerts: ids(alerts),
    subscriptions: ids(subscriptions), destinations: ids(destinations), snippets: ids(snippets), groups: ids(groups), groupSources,
    sources: ids(sources), users: ids(users),
  }
}

/** Values for a row: objects and arrays as JSON but for the text-array columns. */
function values(db: Db, row: Json): Json {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v !== null && typeof v === 'object' && !(v instanceof Date) && !(v instanceof Buffer)
    ? (k === 'tags' || k === 'permissions' ? db.array(v as string[], 25) : db.json(v as never)) : v]))
}

/** Tables this module writes; the column names come from this module, never from input. */
type Table = 'queries' | 'visualizations' | 'dashboards' | 'widgets' | 'alerts' | 'destinations' | 'query_snippets' | 'groups'

export async function insertRow(db: Db, table: Table, row: Json): Promise<number> {
  const v = values(db, row)
  const [r] = await db<{ id: number }[]>`insert into ${db(table)} ${db(v)} returning id`
  return Number(r.id)
}

/** Inserts under ids reserved beforehand (so objects written later in the run can refer to them). */
export async function insertWithId(db: Db, table: Table, row: Json) {
  await db`insert into ${db(table)} (${db(Object.keys(row))}) overriding system value values ${db(values(db, row))}`
}

export async function updateRow(db: Db, table: Table, id: number, row: Json) {
  await db`update ${db(table)} set ${db(values(db, row))} where id = ${id}`
}

export async function deleteRows(db: Db, table: 'visualizations' | 'widgets' | 'alerts' | 'alert_subscriptions', idList: number[]) {
  if (idList.length) await db`delete from ${db(table)} where id = any(${idList}::bigint[])`
}

export async function bumpVersion(db: Db, table: 'queries' | 'dashboards', id: number) {
  await db`update ${db(table)} set version = version + 1, updated_at = now() where id = ${id}`
}

export async function setSourceGrants(db: Db, groupId: number, grants: { data_source_id: number; view_only: boolean }[]) {
  await db`delete from data_source_groups where group_id = ${groupId}`
  for (const g of grants) await db`insert into data_source_groups (data_source_id, group_id, view_only) values (${g.data_source_id}, ${groupId}, ${g.view_only})`
}

export async function subscribe(db: Db, s: { alert_id: number; user_id: number; destination_id: number | null }) {
  await db`insert into alert_subscriptions (alert_id, user_id, destination_id) values (${s.alert_id}, ${s.user_id}, ${s.destination_id}) on conflict do nothing`
}

export async function archive(db: Db, table: 'queries' | 'dashboards', id: number) {
  await db`update ${db(table)} set is_archived = true, updated_at = now() where id = ${id}`
}

export async function writeVersion(db: Db, v: { query_id: number; user_id: number }) {
  await db`
    insert into query_versions (query_id, version, user_id, name, description, query, data_source_id, options, tags, schedule, created_at)
    select id, version, ${v.user_id}, name, description, query, data_source_id, options, tags, schedule, now() from queries where id = ${v.query_id}
    on conflict (query_id, version) do nothing`
}

/** Imports of files into one organization take turns, to the end of the transaction. */
export async function lockContent(db: Db, lockKey: number, orgId: number) {
  await db`select pg_advisory_xact_lock(${lockKey}::int, ${orgId}::int)`
}

export async function destinationKeys(db: Db, orgId: number): Promise<Map<string, number>> {
  const rows = await db<{ id: number; key: string }[]>`select id, key from destinations where org_id = ${orgId}`
  return new Map(rows.map((d) => [d.key, Number(d.id)]))
}

export async function alertIds(db: Db, orgId: number): Promise<Set<number>> {
  return new Set((await db<{ id: number }[]>`select id from alerts where org_id = ${orgId}`).map((a) => Number(a.id)))
}
