import type { CountedPage, Paging } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAllowed } from '../permissions/index.ts'
import { listViewer } from '../queries/index.ts'
import type { ListOrder } from '../shared/list/params.ts'
import { findAlertListPage, type AlertListColumn, type AlertListRow } from './list-store.ts'

export type { AlertListColumn, AlertListRow }

/** One page of the alerts list page, for someone who may list alerts: the alerts on queries they may see. */
export async function alertListPage(
  deps: Deps, principal: Principal, order: ListOrder<AlertListColumn> | null, paging: Paging,
): Promise<CountedPage<AlertListRow>> {
  requireAllowed(principal, 'list_alerts')
  return findAlertListPage(deps.sql, await listViewer(deps.sql, principal), order, paging)
}
