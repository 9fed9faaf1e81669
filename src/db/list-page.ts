import type postgres from 'postgres'
import { isPastEnd, lastPage, type ListOrder } from '../shared/list/params.ts'
import type { Db } from './sql.ts'

/**
 * The paged, ordered, counted SELECT every list runs. A store writes its own SQL (columns, joins, conditions, the
 * expression of each sortable column) as postgres.js fragments; this assembles ORDER BY, LIMIT/OFFSET and the count
 * around them. Only the store's named columns reach ORDER BY, and page numbers are bound as parameters, so nothing
 * from the address is ever written into the SQL.
 */

export type Fragment = postgres.PendingQuery<postgres.Row[]>

export interface Paging {
  page: number
  pageSize: number
}

/** How a list may sort. */
export interface ListOrdering<C extends string> {
  /** The allow-list: each sortable column's SQL expression. */
  columns: Record<C, Fragment>
  /** Where empty values go: 'last' whichever the direction, or 'low' (taken as the smallest: first ascending). */
  nulls: 'last' | 'low'
  /**
   * Columns that are never null: sorted without a NULLS clause, so an index in the same direction (btree's default,
   * nulls first when descending) serves the order and a page stops after its rows instead of sorting the whole list.
   */
  notNull?: readonly C[]
  /** A unique column, sorted the same way, so equal values keep one order and pages never overlap. */
  tieBreaker: Fragment
}

/** ORDER BY's terms for an order the list allows; an order it does not allow is a programming error. */
export function orderBy<C extends string>(db: Db, ordering: ListOrdering<C>, order: ListOrder<C>): Fragment {
  if (!Object.hasOwn(ordering.columns, order.column)) throw new Error(`Not a sortable column: ${order.column}`)
  const direction = order.descending ? db`desc` : db`asc`
  const nulls = ordering.notNull?.includes(order.column) ? db``
    : order.descending || ordering.nulls === 'last' ? db`nulls last` : db`nulls first`
  return db`${ordering.columns[order.column]} ${direction} ${nulls}, ${ordering.tieBreaker} ${direction}`
}

/** One list's SELECT, in pieces. */
export interface ListSelect {
  columns: Fragment
  from: Fragment
  where: Fragment
  orderBy: Fragment
  /** A cheaper FROM for the count, when the page's other joins cannot change how many rows match. */
  countFrom?: Fragment
}

export interface CountedPage<Row> {
  /** How many rows the whole list has. */
  count: number
  /** The page the rows are from: the one asked for, or the last one when asked past the end with `pastEnd: 'last'`. */
  page: number
  rows: Row[]
}

/**
 * One page of a list and how many rows it has in all; `paging` null reads every row. A page past the end comes back
 * empty (the API refuses it) or, with `pastEnd: 'last'`, as the last page (a page's address after deletions).
 */
export async function countedPage<Row extends object>(
  db: Db, q: ListSelect, paging: Paging | null, o: { pastEnd?: 'empty' | 'last' } = {},
): Promise<CountedPage<Row>> {
  if (!paging) {
    const rows = await db<Row[]>`select ${q.columns} from ${q.from} where ${q.where} order by ${q.orderBy}`
    return { count: rows.length, page: 1, rows }
  }
  const [{ count }] = await db<{ count: number }[]>`select count(*)::int as count from ${q.countFrom ?? q.from} where ${q.where}`
  let page = paging.page
  if (isPastEnd(count, page, paging.pageSize)) {
    if (o.pastEnd !== 'last') return { count, page, rows: [] }
    page = lastPage(count, paging.pageSize)
  }
  if (!count) return { count, page, rows: [] }
  const rows = await db<Row[]>`
    select ${q.columns} from ${q.from} where ${q.where} order by ${q.orderBy}
    limit ${paging.pageSize} offset ${(page - 1) * paging.pageSize}`
  return { count, page, rows }
}
