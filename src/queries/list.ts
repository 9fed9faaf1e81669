import type { Db } from '../db/sql.ts'
import { BadRequest } from '../errors.ts'
import { withoutNul } from '../http/validate.ts'
import { queryColumns, queryTables, visibleTo, type QueryRow, type Viewer } from './store.ts'

export const DEFAULT_PAGE_SIZE = 25
export const MAX_PAGE_SIZE = 250

/** Reference §3.3, word for word: the browser shows them. */
export const pageTexts = {
  pagePositive: 'Page must be positive integer.',
  pageOutOfRange: 'Page is out of range.',
  pageSizeOutOfRange: `Page size is out of range (1-${MAX_PAGE_SIZE}).`,
}

/** all: every visible query (drafts of everyone included, reference quirk 3); my: the caller's; archive: archived. */
export type QueryListKind = 'all' | 'my' | 'favorites' | 'archive'

const ORDER_KEYS = ['name', 'created_at', 'schedule', 'runtime', 'executed_at', 'created_by', 'starred_at'] as const
type OrderKey = (typeof ORDER_KEYS)[number]

export interface QueryListParams {
  page: number
  pageSize: number
  /** null: by search rank when searching, else newest first. */
  order: { key: OrderKey; descending: boolean } | null
  /** The search words that can match something (each has a letter or a digit). */
  words: string[]
  tags: string[]
}

const MAX_WORDS = 20

/** The list query string (spec 2 §3 "List state"): page, page_size, order, q, tags; a 400 says what is wrong. */
export function parseListParams(query: Record<string, string | undefined>, tags: string[]): QueryListParams {
  const page = query.page === undefined || query.page === '' ? 1 : Number(query.page)
  if (!Number.isSafeInteger(page) || page < 1) throw new BadRequest(pageTexts.pagePositive)
  const pageSize = query.page_size === undefined || query.page_size === '' ? DEFAULT_PAGE_SIZE : Number(query.page_size)
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new BadRequest(pageTexts.pageSizeOutOfRange)
  const descending = !!query.order?.startsWith('-')
  const key = (descending ? query.order!.slice(1) : query.order) as OrderKey
  // search text and tags go to PostgreSQL, whose text cannot hold NUL: such characters match nothing, so they are dropped
  const words = withoutNul(query.q ?? '').split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).slice(0, MAX_WORDS)
  const cleanTags = [...new Set(tags.map((t) => withoutNul(t).trim()).filter(Boolean))]
  return { page, pageSize, order: ORDER_KEYS.includes(key) ? { key, descending } : null, words, tags: cleanTags }
}

/** A query as listed: with its owner's name and, for the caller, whether and when they starred it. */
export interface QueryListRow extends QueryRow {
  is_favorite: boolean
  starred_at: Date | null
}

/**
 * The text of one search word as a prefix query over its lexemes, tokenised by the same 'simple' configuration as
 * `search_vector`, so "order_items" or "e-mail" match what the column holds. Lexemes are quoted for tsquery input
 * (quotes and backslashes doubled). An uncorrelated subquery: PostgreSQL computes it once, and the GIN index applies.
 */
const prefixQuery = (db: Db, text: string) => db`(
  select string_agg('''' || replace(replace(l.lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')::tsquery
  from unnest(to_tsvector('simple', ${text})) l)`

const numericId = (word: string) => (/^\d{1,15}$/.test(word) ? Number(word) : null)

/** Every word must match, by prefix, the name, description or text; a number may instead be the query's id. */
function searchMatches(db: Db, words: string[]) {
  return words.reduce((all, word) => {
    const id = numericId(word)
    const match = id === null
      ? db`q.search_vector @@ ${prefixQuery(db, word)}`
      : db`(q.search_vector @@ ${prefixQuery(db, word)} or q.id = ${id})`
    return db`${all} and ${match}`
  }, db`true`)
}

type Fragment = ReturnType<typeof queryColumns>

const ORDER_EXPRESSIONS: Record<OrderKey, (db: Db) => Fragment> = {
  name: (db) => db`lower(q.name)`,
  created_at: (db) => db`q.created_at`,
  schedule: (db) => db`case when jsonb_typeof(q.schedule -> 'interval') = 'number' then (q.schedule ->> 'interval')::numeric end`,
  runtime: (db) => db`r.runtime`,
  executed_at: (db) => db`r.retrieved_at`,
  created_by: (db) => db`lower(u.name)`,
  starred_at: (db) => db`f.created_at`,
}

function orderBy(db: Db, p: QueryListParams) {
  if (!p.order && p.words.length) {
    // an exact id first, then the best text match (name weighs most), then the newest
    const ids = p.words.map(numericId).filter((id): id is number => id !== null)
    return db`q.id = any(${ids}::bigint[]) desc, ts_rank(q.search_vector, ${prefixQuery(db, p.words.join(' '))}) desc,
      q.created_at desc, q.id desc`
  }
  const { key, descending } = p.order ?? { key: 'created_at', descending: true }
  // unscheduled, never run or unstarred queries go last whichever way the column is sorted
  return descending
    ? db`${ORDER_EXPRESSIONS[key](db)} desc nulls last, q.id desc`
    : db`${ORDER_EXPRESSIONS[key](db)} asc nulls last, q.id asc`
}

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
    ${p.words.length ? db`and ${searchMatches(db, p.words)}` : db``}`
  // the count needs none of the page's joins but the favorites one (every query has its user; the left joins
  // cannot change the number of rows), so with 10,000 queries it is an index-only scan instead of a join
  const counted = kind === 'favorites'
    ? db`queries q join favorites f on f.object_type = 'query' and f.object_id = q.id and f.user_id = ${v.userId}`
    : db`queries q`
  const [{ count }] = await db<{ count: number }[]>`select count(*)::int as count from ${counted} where ${where}`
  if (!count) return { count, rows: [] }
  const rows = await db<QueryListRow[]>`
    select ${queryColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at
    from ${tables}
    where ${where}
    order by ${orderBy(db, p)}
    limit ${p.pageSize} offset ${(p.page - 1) * p.pageSize}`
  return { count, rows }
}

/** The caller's latest published queries, most recently changed first (the query picker; drafts excluded, spec 2 §5). */
export async function findRecent(db: Db, v: Viewer, limit: number): Promise<QueryListRow[]> {
  return db<QueryListRow[]>`
    select ${queryColumns(db)}, f.user_id is not null as is_favorite, f.created_at as starred_at
    from ${queryTables(db)}
    left join favorites f on f.object_type = 'query' and f.object_id = q.id and f.user_id = ${v.userId}
    where ${visibleTo(db, v)} and q.user_id = ${v.userId} and not q.is_archived and not q.is_draft
    order by q.updated_at desc, q.id desc
    limit ${limit}`
}

/** Each tag on the viewer's unarchived queries with how many carry it, by name (reference §3.1). */
export async function tagCounts(db: Db, v: Viewer): Promise<{ name: string; count: number }[]> {
  return db<{ name: string; count: number }[]>`
    select t.name, count(*)::int as count
    from queries q cross join unnest(q.tags) as t(name)
    where ${visibleTo(db, v)} and not q.is_archived and q.tags <> '{}'
    group by t.name
    order by t.name`
}
