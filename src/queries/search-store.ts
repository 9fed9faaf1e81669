import type { Db, Fragment, Paging } from '../db/index.ts'
import type { SearchWords } from '../shared/list/search-words.ts'

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
function allWordsMatch(db: Db, words: string[]) {
  return words.reduce((all, word) => {
    const id = numericId(word)
    const match = id === null
      ? db`q.search_vector @@ ${prefixQuery(db, word)}`
      : db`(q.search_vector @@ ${prefixQuery(db, word)} or q.id = ${id})`
    return db`${all} and ${match}`
  }, db`true`)
}

/** A query matches when it matches every word of at least one alternative. */
export function searchMatches(db: Db, alternatives: string[][]) {
  const [first, ...rest] = alternatives.map((words) => db`(${allWordsMatch(db, words)})`)
  return rest.reduce((any, match) => db`${any} or ${match}`, first)
}

/** What the rank is measured against: each alternative's words all together, any alternative scoring. */
function rankQuery(db: Db, alternatives: string[][]) {
  const [first, ...rest] = alternatives.map((words) => prefixQuery(db, words.join(' ')))
  return rest.reduce((any, q) => db`${any} || ${q}`, first)
}

/** A list's statement in pieces, as src/db `countedPage` takes them. */
export interface SearchSelect {
  columns: Fragment
  /** The page's FROM (`queries q` with its joins) and the count's (`queries q`, with favorites for that list). */
  from: Fragment
  countFrom: Fragment
  where: Fragment
}

/**
 * One page of a search in rank order (an exact id first, then ts_rank, where a word in the name weighs most, then
 * the newest) and how many queries match, in one pass over the matches: the count and the ranking were two
 * statements, each reading every matching row (11,500 rows over 6,700 pages for a common word at 100,000 queries);
 * now the ids of the page and the count come from one, and only the page's rows are joined to their owners, sources
 * and results. A page past the end has no row to carry the count, so then it is counted on its own.
 */
export async function rankedPage<Row extends { id: number }>(
  db: Db, q: SearchSelect, s: SearchWords, paging: Paging,
): Promise<{ count: number; rows: Row[] }> {
  const ids = s.words.map(numericId).filter((id): id is number => id !== null)
  // the rank is taken where the matches are read (`offset 0` keeps it there): counting over them then holds only the
  // keys the order needs, where ranking above the count held every match's search_vector and, past work_mem
  // (20,000 matches of a common word at 100,000 queries), wrote them to disk
  const ranked = await db<{ id: number; total: number }[]>`
    select m.id, count(*) over ()::int as total
      from (select q.id, q.id = any(${ids}::bigint[]) as exact, ts_rank(q.search_vector, ${rankQuery(db, s.alternatives)}) as rank,
                   q.created_at
              from ${q.countFrom}
             where ${q.where}
            offset 0) m
     order by m.exact desc, m.rank desc, m.created_at desc, m.id desc
     limit ${paging.pageSize} offset ${(paging.page - 1) * paging.pageSize}`
  if (!ranked.length) {
    if (paging.page === 1) return { count: 0, rows: [] }
    const [{ count }] = await db<{ count: number }[]>`select count(*)::int as count from ${q.countFrom} where ${q.where}`
    return { count, rows: [] }
  }
  const pageIds = ranked.map((r) => Number(r.id))
  const rows = await db<Row[]>`select ${q.columns} from ${q.from} where q.id = any(${pageIds}::bigint[])`
  const position = new Map(pageIds.map((id, i) => [id, i]))
  return { count: ranked[0].total, rows: rows.sort((a, b) => position.get(Number(a.id))! - position.get(Number(b.id))!) }
}
