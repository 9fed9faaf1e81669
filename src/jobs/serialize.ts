import { iso } from '../shared/time.ts'
import type { JobRow } from './store.ts'

/** A job as api/jobs/{id} shows it (spec 1 §3). */
export function jobJson(row: JobRow) {
  return {
    id: row.id,
    status: row.status,
    error: row.error ?? '',
    query_result_id: row.query_result_id,
    updated_at: iso(row.updated_at),
  }
}
