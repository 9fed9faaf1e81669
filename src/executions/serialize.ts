import { iso } from '../shared/time.ts'
import type { ExecutionRow } from './store.ts'

/** An execution as the browser polls it: the job of spec 1 §3 (status 1 waiting … 4 failed). */
export function executionJobJson(row: ExecutionRow) {
  return {
    id: row.id,
    status: row.status,
    error: row.error ?? '',
    query_result_id: row.status === 3 ? row.query_result_id : null,
    updated_at: iso(row.updated_at),
  }
}
