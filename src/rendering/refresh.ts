import type { Deps } from '../deps.ts'
import type { dashboardView } from '../dashboards/index.ts'
import { HttpError, Forbidden } from '../errors.ts'
import { waitBriefly, findExecution } from '../executions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { JobStatus } from '../shared/job-status.ts'
import { runSaved } from '../queries/index.ts'
import { widgetValues } from './failures.ts'
import type { RenderDeps } from './types.ts'

/** Why a widget's run failed, by widget id. */
export type RunFailures = Map<number, string>

export type RunOutcome = { resultId: number } | { failure: string } | { unchanged: true }

const DEFAULT_WAIT_MS = 120_000
const asDeps = (deps: RenderDeps) => deps as Deps

/**
 * One run of a saved query with these values, as a dashboard's Refresh runs it (`POST api/queries/{id}/results`
 * with `max_age`): a result younger than `maxAgeSeconds` answers at once, an identical run in flight is joined, so
 * viewers and reports refreshing the same widget share one run. Waited for up to `waitMs`. A viewer who may not run
 * it (view-only access to a query with text parameters) keeps the stored result (`unchanged`); a refused or failed
 * run says why.
 */
export async function runForDrawing(
  deps: RenderDeps, viewer: Principal, queryId: number, values: Record<string, unknown>, maxAgeSeconds: number, waitMs = DEFAULT_WAIT_MS,
): Promise<RunOutcome> {
  let outcome
  try {
    outcome = await runSaved(asDeps(deps), { principal: viewer }, queryId, { parameters: values, maxAge: Math.max(0, Math.floor(maxAgeSeconds)) })
  } catch (error) {
    if (error instanceof Forbidden) return { unchanged: true }
    if (error instanceof HttpError) return { failure: error.message }
    throw error
  }
  if ('result' in outcome) return { resultId: outcome.result.id }
  const id = outcome.execution.id
  const result = await waitBriefly(asDeps(deps), id, waitMs)
  if (result) return { resultId: result.id }
  const execution = await findExecution(deps.sql, viewer.orgId, id)
  if (execution?.status === JobStatus.Failure) return { failure: execution.error ?? 'The query failed.' }
  // still running when we stopped waiting: the stored result is drawn
  return { unchanged: true }
}

/**
 * Runs every chart whose result (for the values the address gives) is older than `maxAgeSeconds` or missing, all at
 * once, and waits for them. Answers the widgets whose run failed, with the error.
 */
export async function refreshStale(
  deps: RenderDeps, viewer: Principal, view: Awaited<ReturnType<typeof dashboardView>>, search: URLSearchParams, maxAgeSeconds: number, waitMs?: number,
): Promise<RunFailures> {
  const values = widgetValues(view, search)
  const oldest = Date.now() - maxAgeSeconds * 1000
  const stale = view.widgets.flatMap((w) => {
    if (w.kind !== 'chart') return []
    const fresh = w.html !== null && w.retrievedAt !== null && Date.parse(w.retrievedAt) >= oldest
    return fresh ? [] : [w]
  })
  const failures: RunFailures = new Map()
  await Promise.all(stale.map(async (w) => {
    const outcome = await runForDrawing(deps, viewer, w.queryId, values.get(w.id) ?? {}, maxAgeSeconds, waitMs)
    if ('failure' in outcome) failures.set(w.id, outcome.failure)
  }))
  return failures
}
