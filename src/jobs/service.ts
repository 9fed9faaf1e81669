import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import type { Principal } from '../permissions/principal.ts'
import { findJob, type JobRow } from './store.ts'

/** A job of the caller's organization. Job ids are random UUIDs, so knowing one is the capability to poll it. */
export async function getJob(deps: Deps, principal: Principal, id: string): Promise<JobRow> {
  const job = await findJob(deps.sql, principal.orgId, id)
  if (!job) throw new NotFound('Job not found.')
  return job
}
