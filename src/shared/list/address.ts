import { addressPage, addressPageSize, parseOrder, searchText, tagList } from './params.ts'

/**
 * A list page's state lives in its address (q, tags, order, page, page_size), so links, reloads, the back button and
 * the page without script agree. Here: reading that state and writing the addresses a list's links lead to.
 */

/** What sets one list apart: its columns, its defaults and whether it searches or filters by tag. */
export interface ListSpec<C extends string = string> {
  /** The columns it sorts by, each with the direction its first click picks (names A–Z, dates newest first). */
  columns: Readonly<Record<C, 'asc' | 'desc'>>
  /** The order when none is chosen, as the address writes it ('-created_at'); null for a list that does not sort. */
  defaultOrder: string | null
  pageSizes: readonly number[]
  defaultPageSize: number
  /** Whether it reads `q`; 'ranked': while searching, no chosen order means by relevance, so a search drops the order. */
  search?: 'plain' | 'ranked'
  /** Whether it reads `tags`. */
  tags?: boolean
}

export interface ListState {
  q: string
  tags: string[]
  /** As the address gives it; null: none chosen, so the list's default (or, searching a ranked list, relevance). */
  order: string | null
  page: number
  pageSize: number
}

export const columnsOf = <C extends string>(spec: ListSpec<C>) => Object.keys(spec.columns) as C[]

/** The state an address asks for; anything malformed falls back to the list's default. */
export function readListState(spec: ListSpec, params: URLSearchParams): ListState {
  const order = params.get('order')
  return {
    q: spec.search ? searchText(params.get('q')) : '',
    tags: spec.tags ? tagList([...params.getAll('tags'), ...params.getAll('tags[]')]) : [],
    order: parseOrder(order, columnsOf(spec)) ? order : null,
    page: addressPage(params.get('page')),
    pageSize: addressPageSize(params.get('page_size'), spec.pageSizes, spec.defaultPageSize),
  }
}

/** The order that applies when none is chosen: the list's default, or none (relevance) while searching a ranked list. */
const implicitOrder = (spec: ListSpec, s: ListState) => (spec.search === 'ranked' && s.q ? null : spec.defaultOrder)

/** The order in effect: the chosen one, else the implicit one. */
export const effectiveOrder = (spec: ListSpec, s: ListState): string | null => s.order ?? implicitOrder(spec, s)

/** Where a click on a column title leads: the first click picks the column's natural direction, the next turns it round. */
export function nextOrder<C extends string>(spec: ListSpec<C>, s: ListState, column: C): string {
  const current = effectiveOrder(spec, s)
  if (current === column) return `-${column}`
  if (current === `-${column}`) return column
  return spec.columns[column] === 'asc' ? column : `-${column}`
}

/**
 * The query string of a state ('' or '?…'), defaults left out so links stay short; `full` writes page and page_size
 * always (for the API, whose defaults differ from the page's).
 */
export function listSearch(spec: ListSpec, s: ListState, o: { full?: boolean } = {}): string {
  const query = new URLSearchParams()
  if (s.q) query.set('q', s.q)
  for (const tag of s.tags) query.append('tags', tag)
  if (s.order !== null && s.order !== implicitOrder(spec, s)) query.set('order', s.order)
  if (s.page > 1 || o.full) query.set('page', String(s.page))
  if (s.pageSize !== spec.defaultPageSize || o.full) query.set('page_size', String(s.pageSize))
  const text = query.toString()
  return text ? `?${text}` : ''
}

/** What a search form carries besides `q`: the tags and page size, and the order unless the search ranks. */
export function searchKeeps(spec: ListSpec, s: ListState): [name: string, value: string][] {
  const kept: [string, string][] = s.tags.map((tag) => ['tags', tag])
  if (spec.search !== 'ranked' && s.order !== null && s.order !== spec.defaultOrder) kept.push(['order', s.order])
  if (s.pageSize !== spec.defaultPageSize) kept.push(['page_size', String(s.pageSize)])
  return kept
}

/** Page numbers around the current one, with the first and the last, and gaps (null) between. */
export function pageWindow(page: number, pages: number): (number | null)[] {
  const wanted = [...new Set([1, page - 1, page, page + 1, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b)
  // an ellipsis stands for two pages or more: one page alone is shown, as it takes no more room than the ellipsis
  return wanted.flatMap((n, i) => {
    const gap = i > 0 ? n - wanted[i - 1] : 1
    return gap === 2 ? [n - 1, n] : gap > 2 ? [null, n] : [n]
  })
}
