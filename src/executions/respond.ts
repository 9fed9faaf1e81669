import type { Deps } from '../deps.ts'
import { COMPRESSIBLE } from '../shared/headers.ts'
import { compressionMark, resultJsonStream, worthCompressing } from '../results/index.ts'
import { finishedJobJson } from './finished-job.ts'
import { executionJobJson } from './serialize.ts'
import type { Outcome } from './service.ts'

/**
 * A run's answer: the result itself when it is ready (streamed), with the finished job clients of the established
 * tool poll (src/executions/finished-job.ts), else the job to poll; `shared`: a key's view of it.
 */
export function outcomeResponse(deps: Deps, outcome: Outcome, shared = false): Response {
  if ('result' in outcome) {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (worthCompressing(outcome.result)) headers[COMPRESSIBLE] = compressionMark(outcome.result)
    const job = finishedJobJson(deps.secretKey, outcome.result)
    return new Response(resultJsonStream(deps, outcome.result, shared, { job }), { headers })
  }
  return Response.json({ job: executionJobJson(outcome.execution) })
}

/** `{job}` alone, as `POST api/queries/{id}/refresh` answers: the execution's, or the finished one of a result. */
export function outcomeJobResponse(deps: Deps, outcome: Outcome): Response {
  if ('result' in outcome) return Response.json({ job: finishedJobJson(deps.secretKey, outcome.result) })
  return Response.json({ job: executionJobJson(outcome.execution) })
}
