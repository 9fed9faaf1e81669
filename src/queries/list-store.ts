import { countedPage, orderBy as listOrderBy, type Fragment } from '../db/index.ts'
import type { Db } from '../db/index.ts'
import { apiListQuery } from '../validation/index.ts'
import type { ListQuery } from '../shared/list/params.ts'
import { searchWords, type SearchWords } from '../shared/list/search-words.ts'
import { rankedPage, searchMatches } from './search-store.ts'
import { queryColumns, queryTables, visibleTo, type QueryRow, type Viewer } from './store.ts'

/** all: every visible query (drafts of everyone included, reference quirk 3); my: the caller's; archive: archived. */
export type QueryListKind = 'all' | 'my' | 'favorites' | 'archive'

/** The columns the lists sort by (reference §3.3). */
export const QUERY_ORDERS = ['name', 'created_at', 'schedule', 'runtime', 'executed_at', 'created_by', 'starred_at'] as const
type OrderKey = (typeof QUERY_ORDERS)[number]

export interface QueryListParams extends ListQuery<OrderKey>, SearchWords {}

/** The list query string (spec 2 §3 "List state"): page, page_size, order, q, tags; a 400 says what is wrong. */
export function parseListParams(query: Record<string, string | undefined>, tags: string[]): QueryListParams {
  const list = apiListQuery(query, QUERY_ORDERS, tags)
  return { ...list, ...searchWords(list.q) }
}

/** A query as listed: with its owner's name and, for the caller, whether and when they starred it. */
export interface QueryListRow extends QueryRow {
  is_favorite: boolean
  starred_at: Date | null
}

/** The sortable columns; unscheduled, never run or unstarred queries go last whichever way a column is sorted. */
const ordering = (db: Db) => ({
  columns: {
    name: db`lower(q.name)`,
    created_at: db`q.created_at`,
    schedule: db`case when jsonb_typeof(q.schedule -> 'interval') = 'number' then (q.schedule ->> 'interval')::numeric end`,
    runtime: db`r.runtime`,
    executed_at: db`r.retrieved_at`,
    created_by: db`lower(u.name)`,
    starred_at: db`f.created_at`,
  } satisfies Record<OrderKey, Fragment>,
  nulls: 'last' as const,
  tieBreaker: db`q.id`,
})

/** One page of a list, and how many queries the list has in all. */
export async function findPage(db: Db, v: Viewer, kind: QueryListKind, p: QueryListParams): Promise<{ count: number; rows: QueryListRow[] }> {
  const tables = db`${queryTables(db)}
    join users u on u.id = q.user_id
    left join favorites f on f.object_type = 'query' and f.object_id = q.id and f.user_id = ${v.userId}`
  const where = db`
    ${visibleTo(db, v)}
    and q.is_archived = ${kind === 'archive'}
    ${kind === 'my' ? db`and q.user_id = ${v.userId}` : db``}
    ${kind === 'favorites' ? db`and f.user_id is not null` : db``}
    ${p.tags.length ? db`and q.tags @> ${p.tags}::text[]` : db``}
    ${p.alternatives.length ? db`and (${searchMatches(db, p.alternatives)})` : db``}`
  // the count needs none of the page's joins but the favorites one (every query has its user; the left joins
  // cannot change the number of rows), so with 10,000 queries it is an index-only scan instead of a join
  const countFrom = kind === 'favorites'
    ? db`queries q join favorites f on f.object_type = 'query' and f.object_id = q.id and f.user_id = ${v.userId}`
    : db`queries q`
  const columns = db`${queryColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at`
  if (p.order || !p.words.length) {
    const order = listOrderBy(db, ordering(db), p.order ?? { column: 'created_at', descending: true })
    const { count, rows } = await countedPage<QueryListRow>(db, { columns, from: tables, where, countFrom, orderBy: order }, p)
    return { count, rows }
  }
  // a search with no order asked for: in rank order, counted in the same pass (./search-store.ts)
  return rankedPage<QueryListRow>(db, { columns, from: tables, countFrom, where }, p, p)
}

/**
 * The caller's latest queries, drafts included, most recently changed first (reference §3.1: the established tool
 * answers its clients so; a picker that must not offer drafts leaves them out itself, spec 2 §5).
 */
export async function findRecent(db: Db, v: Viewer, limit: number): Promise<QueryListRow[]> {
  return db<QueryListRow[]>`
    select ${queryColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at
    from ${queryTables(db)}
    left join favorites f on f.object_type = 'query' and f.object_id = q.id and f.user_id = ${v.userId}
    where ${visibleTo(db, v)} and q.user_id = ${v.userId} and not q.is_archived
    order by q.updated_at desc, q.id desc
    limit ${limit}`
}

/**
 * Each tag on the viewer's unarchived queries with how many carry it, by name (reference §3.1). Read from the index of
 * tagged queries alone (sql/migrations/0051), the tags unnested in the select list (cheaper than a lateral join).
 */
export async function tagCounts(db: Db, v: Viewer): Promise<{ name: string; count: number }[]> {
  return db<{ name: string; count: number }[]>`
    select t.name, count(*)::int as count
    from (select unnest(q.tags) as name from queries q where ${visibleTo(db, v)} and not q.is_archived and q.tags <> '{}') t
    group by t.name
    order by t.name`
}
