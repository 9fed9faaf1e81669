import type { Db } from '../db/index.ts'
import { countedPage, type CountedPage, type Fragment, type Paging } from '../db/index.ts'
import { visibleTo, type Viewer } from '../queries/index.ts'
import type { ListOrder } from '../shared/list/params.ts'
import { iso } from '../shared/time.ts'

/** One line of the alerts list: what its columns show, nothing more. */
export interface AlertListRow {
  id: number
  name: string
  muted: boolean
  state: string
  user_name: string
  created_at: string
  updated_at: string
}

export type AlertListColumn = 'name' | 'created_by' | 'state' | 'updated_at' | 'created_at'

interface StoredRow {
  id: number
  name: string
  muted: boolean
  state: string
  user_name: string
  created_at: Date
  updated_at: Date
}

/**
 * The sortable columns. Text sorts by code point (`collate "C"`), as the list always has; equal values keep the
 * newest first when ascending and the oldest first when descending, the list's order since it was first drawn.
 */
function orderBy(db: Db, order: ListOrder<AlertListColumn> | null): Fragment {
  if (!order) return db`a.created_at desc, a.id desc`
  const columns: Record<AlertListColumn, Fragment> = {
    name: db`lower(a.name) collate "C"`,
    created_by: db`lower(coalesce(u.name, '')) collate "C"`,
    state: db`a.state collate "C"`,
    updated_at: db`a.updated_at`,
    created_at: db`a.created_at`,
  }
  return order.descending ? db`${columns[order.column]} desc, a.id asc` : db`${columns[order.column]} asc, a.id desc`
}

/**
 * One page of the alerts list page: the same alerts as GET /api/alerts (each once, on queries the viewer may see),
 * sorted and paged by the database, without serialising every alert's query, which the list does not show. A page
 * past the end is the last one.
 */
export async function findAlertListPage(
  db: Db, v: Viewer, order: ListOrder<AlertListColumn> | null, paging: Paging,
): Promise<CountedPage<AlertListRow>> {
  const page = await countedPage<StoredRow>(db, {
    columns: db`a.id, a.name, coalesce(a.options -> 'muted' = 'true'::jsonb, false) as muted, a.state, coalesce(u.name, '') as user_name,
      a.created_at, a.updated_at`,
    from: db`alerts a join queries q on q.id = a.query_id left join users u on u.id = a.user_id and u.org_id = a.org_id`,
    countFrom: db`alerts a join queries q on q.id = a.query_id`,
    where: db`a.org_id = ${v.orgId} and ${visibleTo(db, v)}`,
    orderBy: orderBy(db, order),
  }, paging, { pastEnd: 'last' })
  return {
    ...page,
    rows: page.rows.map((r) => ({ ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! })),
  }
}
