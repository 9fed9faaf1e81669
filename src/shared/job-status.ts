/**
 * The status of a background job (a query execution or a schema refresh) as the API reports it, with the
 * established tool's numbers (reference §4.3: queued 1, started 2, finished 3, failed 4; a cancelled job is failed).
 * SQL keeps the bare numbers: partial indexes (`where status in (1, 2)`) are only used when a query repeats their
 * predicate literally, so a bound parameter would cost the index.
 */
export const JobStatus = { Pending: 1, Started: 2, Success: 3, Failure: 4 } as const

export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus]

/** True once a job has succeeded or failed: polling it further changes nothing. */
export function isFinished(status: JobStatus): boolean {
  return status >= JobStatus.Success
}
