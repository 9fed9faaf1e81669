import { effectiveOrder, type ListSpec, type ListState } from '../../../src/shared/list/address.ts'
import { parseOrder } from '../../../src/shared/list/params.ts'
import { ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZES, type OutdatedQuery } from '../../../src/shared/monitoring.ts'
import { tableSearch } from './list.ts'

export type OutdatedColumn = 'id' | 'name' | 'created_at' | 'runtime' | 'retrieved_at' | 'schedule'

/** Outdated Queries sorts by any column; newest first until one is chosen, as the API lists them. */
export const OUTDATED_LIST: ListSpec<OutdatedColumn> = {
  columns: { id: 'asc', name: 'asc', created_at: 'desc', runtime: 'desc', retrieved_at: 'desc', schedule: 'asc' },
  defaultOrder: '-created_at',
  pageSizes: ADMIN_PAGE_SIZES,
  defaultPageSize: ADMIN_PAGE_SIZE,
}

export const outdatedAddress = (s: ListState) => `/admin/queries/outdated${tableSearch(OUTDATED_LIST, s)}`

const interval = (q: OutdatedQuery) => {
  const n = Number(q.schedule?.interval)
  return Number.isFinite(n) ? n : null
}

const KEYS: Record<OutdatedColumn, (q: OutdatedQuery) => string | number | null> = {
  id: (q) => q.id,
  name: (q) => q.name.toLocaleLowerCase(),
  created_at: (q) => q.created_at,
  runtime: (q) => q.runtime,
  retrieved_at: (q) => q.retrieved_at,
  schedule: interval,
}

/** The queries in the list's order; missing values (never run, no runtime) go last either way, ties by id. */
export function sortOutdated(queries: OutdatedQuery[], s: ListState): OutdatedQuery[] {
  const order = parseOrder(effectiveOrder(OUTDATED_LIST, s), Object.keys(OUTDATED_LIST.columns) as OutdatedColumn[])
  if (!order) return queries
  const key = KEYS[order.column]
  const sign = order.descending ? -1 : 1
  return [...queries].sort((a, b) => {
    const x = key(a)
    const y = key(b)
    if (x === null || y === null) return x === y ? a.id - b.id : x === null ? 1 : -1
    const by = typeof x === 'string' ? x.localeCompare(String(y)) : x - Number(y)
    return by === 0 ? a.id - b.id : sign * by
  })
}
