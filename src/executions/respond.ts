import type { Deps } from '../deps.ts'
import { COMPRESSIBLE } from '../shared/headers.ts'
import { resultJsonStream, worthCompressing } from '../results/service.ts'
import { executionJobJson } from './serialize.ts'
import type { Outcome } from './service.ts'

/** A run's answer: the result itself when it is ready (streamed), else the job to poll; `shared`: a key's view of it. */
export function outcomeResponse(deps: Deps, outcome: Outcome, shared = false): Response {
  if ('result' in outcome) {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (worthCompressing(outcome.result)) headers[COMPRESSIBLE] = '1'
    return new Response(resultJsonStream(deps, outcome.result, shared), { headers })
  }
  return Response.json({ job: executionJobJson(outcome.execution) })
}
