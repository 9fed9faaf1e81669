import type { JobStatus } from '../job-status.ts'

/**
 * A query's run as `api/jobs/{id}`, `api/query_results` and `api/queries/{id}/results` answer it (spec 1 §3: 1
 * waiting, 2 processing, 3 done, 4 failed; 5 cancelled). The one declaration the server's serializers and the
 * browser's islands share.
 */
export interface ExecutionJobJson {
  id: string
  status: JobStatus
  /** The failure's text; empty (or null, for a job answered already finished) when there is none. */
  error: string | null
  /** Set once the run is done: the result to read. */
  query_result_id: number | null
  updated_at?: string | null
  /** On a run that waits with no worker to run it: why. */
  waiting_reason?: string
}
