import type { Deps } from '../deps.ts'
import { resultJsonStream } from '../results/service.ts'
import { executionJobJson } from './serialize.ts'
import type { Outcome } from './service.ts'

/** A run's answer: the result itself when it is ready (streamed), else the job to poll. */
export function outcomeResponse(deps: Deps, outcome: Outcome): Response {
  if ('result' in outcome) {
    return new Response(resultJsonStream(deps, outcome.result), { headers: { 'content-type': 'application/json' } })
  }
  return Response.json({ job: executionJobJson(outcome.execution) })
}
