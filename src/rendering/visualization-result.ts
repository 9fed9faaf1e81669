import type { Deps } from '../deps.ts'
import { storedResultFor } from '../dashboards/index.ts'
import type { Principal } from '../permissions/index.ts'
import type { AccessibleQueryRow } from '../queries/index.ts'
import { mayReadSourcesOf, findResult } from '../results/index.ts'
import { stateFromSearch } from '../shared/dashboard-parameters.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import { runForDrawing } from './refresh.ts'
import type { DrawOptions, RenderDeps } from './types.ts'

/**
 * The result a lone visualization shows: for a query with parameters, the stored result of the address's values
 * (`p_<name>`, else the defaults); otherwise the query's latest. With `refreshOlderThanSeconds`, run first when older.
 * 'restricted' when the viewer may not read the result's sources (a Query Results query's).
 */
export async function visualizationResult(
  deps: RenderDeps, viewer: Principal, query: AccessibleQueryRow, search: URLSearchParams, opts: DrawOptions,
): Promise<{ resultId: number | 'restricted' | null; failure?: string }> {
  const defs = (query.options.parameters ?? []) as ParameterDefinition[]
  const values = stateFromSearch(search, defs, {}).dashboard
  if (opts.refreshOlderThanSeconds !== undefined) {
    const run = await runForDrawing(deps, viewer, query.id, values, opts.refreshOlderThanSeconds, opts.refreshWaitMs)
    if ('resultId' in run) return { resultId: run.resultId }
    const stored = await storedOf(deps, viewer, query, defs, values)
    return { resultId: stored, ...('failure' in run ? { failure: run.failure } : {}) }
  }
  return { resultId: await storedOf(deps, viewer, query, defs, values) }
}

async function storedOf(
  deps: RenderDeps, viewer: Principal, query: AccessibleQueryRow, defs: ParameterDefinition[], values: Record<string, unknown>,
): Promise<number | 'restricted' | null> {
  if (defs.length) {
    const stored = await storedResultFor(deps as Deps, viewer, query.org_id, query, values).catch(() => undefined)
    return stored?.id ?? null
  }
  if (query.latest_query_data_id == null) return null
  const latest = await findResult(deps.sql, query.org_id, query.latest_query_data_id)
  if (!latest) return null
  return (await mayReadSourcesOf(deps.sql, viewer, latest)) ? latest.id : 'restricted'
}
