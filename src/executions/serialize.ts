import type { ExecutionJobJson } from '../shared/api/jobs.ts'
import { JobStatus } from '../shared/job-status.ts'
import { iso } from '../shared/time.ts'
import type { ExecutionRow } from './store.ts'

/**
 * An execution as the browser polls it: the job of spec 1 §3 (status 1 waiting … 4 failed), and, on one that waits
 * with no worker to run it, `waiting_reason` saying so.
 */
export function executionJobJson(row: ExecutionRow & { waiting_reason?: string }): ExecutionJobJson {
  return {
    id: row.id,
    status: row.status,
    error: row.error ?? '',
    query_result_id: row.status === JobStatus.Success ? row.query_result_id : null,
    updated_at: iso(row.updated_at),
    ...(row.waiting_reason ? { waiting_reason: row.waiting_reason } : {}),
  }
}
