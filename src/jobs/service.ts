import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import type { Principal } from '../permissions/index.ts'
import { isFinished } from '../shared/job-status.ts'
import { failIfAbandoned, findJob, type JobRow } from './store.ts'

export const ABANDONED_JOB_MESSAGE = 'No worker finished this job: the worker running it stopped, or none is running. Please try again.'

/**
 * A job of the caller's organization. Job ids are random UUIDs, so knowing one is the capability to poll it. One left
 * unfinished and untouched for long is failed here, so a poller sees an end even with no worker left to fail it.
 */
export async function getJob(deps: Deps, principal: Principal, id: string): Promise<JobRow> {
  const job = await findJob(deps.sql, principal.orgId, id)
  if (!job) throw new NotFound('Job not found.')
  return isFinished(job.status) ? job : failIfAbandoned(deps.sql, job, ABANDONED_JOB_MESSAGE)
}
