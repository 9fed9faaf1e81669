import { countedPage, orderBy as listOrderBy, type Fragment } from '../db/index.ts'
import type { Db } from '../db/index.ts'
import { STORED_OBJECT_TYPE } from '../object-types.ts'
import type { ListQuery } from '../shared/list/params.ts'
import { searchWords, type SearchWords } from '../shared/list/search-words.ts'
import { apiListQuery } from '../validation/index.ts'
import { readableSources } from '../queries/index.ts'
import { dashboardColumns, type DashboardRow, type DashboardViewer } from './store.ts'

export type DashboardListKind = 'all' | 'my' | 'favorites'

/** The columns the lists sort by (spec 2 §2: Name, Created By, Created At; favourites by when they were starred). */
export const DASHBOARD_ORDERS = ['name', 'created_at', 'created_by', 'starred_at'] as const
type OrderKey = (typeof DASHBOARD_ORDERS)[number]

export interface DashboardListParams extends ListQuery<OrderKey>, SearchWords {
  /** Only the dashboards the viewer may change (Add to Dashboard's list): theirs, granted 'modify', or any for an admin. */
  editable: boolean
}

/** The list query string (page, page_size, order, q, tags, can_edit=true); a 400 says what is wrong. */
export function parseDashboardListParams(query: Record<string, string | undefined>, tags: string[]): DashboardListParams {
  const list = apiListQuery(query, DASHBOARD_ORDERS, tags)
  return { ...list, ...searchWords(list.q), editable: query.can_edit === 'true' }
}

/** The rule of `canModify` (src/grants) as SQL: an admin, the owner, or a 'modify' grant. */
function modifiableBy(db: Db, v: DashboardViewer): Fragment {
  if (v.admin) return db`true`
  return db`(d.user_id = ${v.userId} or exists (
    select 1 from access_permissions ap
    where ap.object_type = ${STORED_OBJECT_TYPE.dashboards} and ap.object_id = d.id and ap.access_type = 'modify' and ap.grantee_id = ${v.userId}))`
}

/** A dashboard as listed, with the caller's star. */
export interface DashboardListRow extends DashboardRow {
  is_favorite: boolean
  starred_at: Date | null
}

/**
 * The dashboards a viewer is listed (reference §7.1 `Dashboard.all`): the organization's unarchived ones that are
 * theirs, or published and showing something they can see: a widget on a source of one of their groups, or no query
 * widgets at all (a page of text is for everyone; the established tool lists it to its owner only). Anyone may still
 * open any dashboard by its address; widgets they cannot see come back restricted.
 *
 * The member's sources come looked up (src/queries `listViewer`); the sources each dashboard's charts read are kept
 * on the dashboard in `source_ids` (sql/migrations/0050), so both conditions read the row the list reads anyway: a
 * count is one pass over the dashboards, and a page stops after its rows in the order of an index.
 */
function listedTo(db: Db, v: DashboardViewer): Fragment {
  if (v.admin) return db`d.org_id = ${v.orgId} and not d.is_archived and (d.user_id = ${v.userId} or not d.is_draft)`
  // a null in source_ids (a chart whose query lost its source) overlaps nothing and keeps the array from being empty
  return db`d.org_id = ${v.orgId} and not d.is_archived and (d.user_id = ${v.userId} or (not d.is_draft and (
    d.source_ids && ${readableSources(db, v)} or d.source_ids = '{}')))`
}

/** Each word must be part of the name (any case), as the established tool searches dashboards; a number may be the id. */
function searchMatches(db: Db, alternatives: string[][]): Fragment {
  const word = (w: string) => {
    const like = '%' + w.replace(/[\\%_]/g, (c) => `\\${c}`) + '%'
    return /^\d{1,15}$/.test(w) ? db`(d.name ilike ${like} or d.id = ${Number(w)})` : db`d.name ilike ${like}`
  }
  const all = (words: string[]) => words.map(word).reduce((acc, m) => db`${acc} and ${m}`, db`true`)
  const [first, ...rest] = alternatives.map((words) => db`(${all(words)})`)
  return rest.reduce((any, m) => db`${any} or ${m}`, first)
}

const ordering = (db: Db) => ({
  columns: {
    name: db`lower(d.name)`,
    created_at: db`d.created_at`,
    created_by: db`lower(u.name)`,
    starred_at: db`f.created_at`,
  } satisfies Record<OrderKey, Fragment>,
  nulls: 'last' as const,
  notNull: ['created_at'] as const,
  tieBreaker: db`d.id`,
})

/** One page of a list, and how many dashboards the list has in all; newest first unless told otherwise. */
export async function findDashboardPage(db: Db, v: DashboardViewer, kind: DashboardListKind, p: DashboardListParams) {
  const from = db`dashboards d
    join users u on u.id = d.user_id
    left join favorites f on f.object_type = 'dashboard' and f.object_id = d.id and f.user_id = ${v.userId}`
  const where = db`
    ${listedTo(db, v)}
    ${kind === 'my' ? db`and d.user_id = ${v.userId}` : db``}
    ${kind === 'favorites' ? db`and f.user_id is not null` : db``}
    ${p.tags.length ? db`and d.tags @> ${p.tags}::text[]` : db``}
    ${p.editable ? db`and ${modifiableBy(db, v)}` : db``}
    ${p.alternatives.length ? db`and (${searchMatches(db, p.alternatives)})` : db``}`
  // the count needs no join but the favorites one: every dashboard has its user, and the left join adds no rows
  const countFrom = kind === 'favorites'
    ? db`dashboards d join favorites f on f.object_type = 'dashboard' and f.object_id = d.id and f.user_id = ${v.userId}`
    : db`dashboards d`
  const columns = db`${dashboardColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at`
  const order = p.order ?? { column: kind === 'favorites' ? 'starred_at' : 'created_at', descending: true }
  return countedPage<DashboardListRow>(db, { columns, from, countFrom, where, orderBy: listOrderBy(db, ordering(db), order) }, p)
}

/** The dashboards the caller opened last, most recent first (GET api/dashboards/recent), from their view events. */
export async function findRecentlyViewed(db: Db, v: DashboardViewer, limit: number): Promise<DashboardListRow[]> {
  return db<DashboardListRow[]>`
    select ${dashboardColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at
    from (
      select e.object_id::bigint as id, max(e.created_at) as seen
      from events e
      where e.org_id = ${v.orgId} and e.user_id = ${v.userId} and e.object_type = 'dashboard' and e.action = 'view'
        and e.object_id ~ '^[0-9]{1,15}$'
        and e.created_at > now() - interval '30 days'
      group by e.object_id
      order by seen desc
      limit ${limit * 2}) r
    join dashboards d on d.id = r.id
    left join favorites f on f.object_type = 'dashboard' and f.object_id = d.id and f.user_id = ${v.userId}
    where ${listedTo(db, v)}
    order by r.seen desc
    limit ${limit}`
}

/** Each tag on the dashboards the viewer is listed, with how many carry it, by name. */
export async function dashboardTagCounts(db: Db, v: DashboardViewer): Promise<{ name: string; count: number }[]> {
  return db<{ name: string; count: number }[]>`
    select t.name, count(*)::int as count
    from dashboards d cross join unnest(d.tags) as t(name)
    where ${listedTo(db, v)} and d.tags <> '{}'
    group by t.name
    order by t.name`
}
