import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/sql.ts'
import { planDueReports } from '../../src/reports/plan.ts'
import { deleteExpiredImages } from '../../src/reports/send-store.ts'

/** Every minute: each report that came due gets one send (src/reports/plan.ts); pictures past their 7 days go. */
export const planReports = (sql: Sql): Task => async () => {
  await planDueReports(sql)
  await deleteExpiredImages(sql)
}
