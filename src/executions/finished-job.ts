import crypto from 'node:crypto'
import type { Deps } from '../deps.ts'
import type { ExecutionJobJson } from '../shared/api/jobs.ts'
import { NotFound } from '../errors.ts'
import { findResult, type ResultRow } from '../results/index.ts'
import { JobStatus } from '../shared/job-status.ts'
import { iso } from '../shared/time.ts'

/**
 * The finished job a run answered at once carries beside its result. The established tool always answers a run with
 * a job to poll, and many of its clients read `job` whatever else comes back: Sightline's instant answers (a stored
 * result, or a run that ended within the brief wait) add a job that is already done, which `GET api/jobs/{id}` also
 * answers. Nothing is stored for it: its id names the result, with a MAC under the installation's secret so ids
 * cannot be made up to learn which results exist. It has a UUID's shape, with 8 where a random (v4) one has 4, so it
 * never meets an execution's id.
 */

const RESULT_HEX = 12
const MAC_HEX = 19

function mac(secretKey: string, orgId: number, resultId: number): string {
  return crypto.createHmac('sha256', secretKey).update(`finished-job:${orgId}:${resultId}`).digest('hex').slice(0, MAC_HEX)
}

const asUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

/** The id of the finished job of `resultId`. */
export function finishedJobId(secretKey: string, orgId: number, resultId: number): string {
  return asUuid(resultId.toString(16).padStart(RESULT_HEX, '0') + '8' + mac(secretKey, orgId, resultId))
}

/** The result a finished job's id names, or undefined for any other id (an execution's, or a made-up one). */
export function resultOfFinishedJob(secretKey: string, orgId: number, jobId: string): number | undefined {
  const hex = jobId.replaceAll('-', '').toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(hex) || hex[RESULT_HEX] !== '8') return undefined
  const resultId = Number.parseInt(hex.slice(0, RESULT_HEX), 16)
  if (!Number.isSafeInteger(resultId) || resultId <= 0) return undefined
  const expected = Buffer.from(mac(secretKey, orgId, resultId))
  const given = Buffer.from(hex.slice(RESULT_HEX + 1))
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? resultId : undefined
}

/** `{id, status: 3, query_result_id, error: null, updated_at}`, as the established tool serializes a finished job. */
export function finishedJobJson(secretKey: string, result: Pick<ResultRow, 'id' | 'org_id' | 'retrieved_at'>): ExecutionJobJson {
  return {
    id: finishedJobId(secretKey, result.org_id, result.id),
    status: JobStatus.Success,
    query_result_id: result.id,
    error: null,
    updated_at: iso(result.retrieved_at),
  }
}

/**
 * `GET api/jobs/{id}` for a finished job's id: its job while its result is kept (404 once the result is cleaned up);
 * undefined for any other id, which may be an execution's.
 */
export async function findFinishedJob(deps: Pick<Deps, 'sql' | 'secretKey'>, orgId: number, jobId: string) {
  const resultId = resultOfFinishedJob(deps.secretKey, orgId, jobId)
  if (resultId === undefined) return undefined
  const result = await findResult(deps.sql, orgId, resultId)
  if (!result) throw new NotFound('Job not found.')
  return finishedJobJson(deps.secretKey, result)
}
