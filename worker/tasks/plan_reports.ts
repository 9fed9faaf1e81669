import type { Task } from 'graphile-worker'
import type { Sql } from '../../src/db/index.ts'
import { planDueReports, deleteExpiredImages } from '../../src/reports/index.ts'

/** Every minute: each report that came due gets one send (src/reports/plan.ts); pictures past their 7 days go. */
export const planReports = (sql: Sql): Task => async () => {
  await planDueReports(sql)
  await deleteExpiredImages(sql)
}
