import { findById as findDataSource } from '../data-sources/index.ts'
import type { Deps } from '../deps.ts'
import type { dashboardView } from '../dashboards/index.ts'
import { queryHash, fillParameters, textToRun } from '../executions/index.ts'
import { stateFromSearch, widgetRunValues } from '../shared/dashboard-parameters.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import { lastFailedRuns } from './store.ts'
import type { RenderDeps } from './types.ts'

type View = Awaited<ReturnType<typeof dashboardView>>

/** The values each chart's query runs with for this address (its mappings applied), by widget id. */
export function widgetValues(view: View, search: URLSearchParams): Map<number, Record<string, unknown>> {
  const state = stateFromSearch(search, view.parameters.dashboard, view.parameters.widgets)
  return new Map(view.widgets.flatMap((w) => (w.kind === 'chart' ? [[w.id, widgetRunValues({ id: w.id, parameters: w.parameters, options: w.mappings }, state)]] : [])))
}

/**
 * The widgets whose last run for their values failed after the result they show was stored (or with none stored),
 * with the run's error: a failing query's widget says why rather than showing old or no data silently.
 */
export async function failedWidgets(deps: RenderDeps, orgId: number, view: View, search: URLSearchParams): Promise<Map<number, string>> {
  const values = widgetValues(view, search)
  const queries = new Map((view.dashboard.widgets ?? []).flatMap((w) => ('visualization' in w ? [[w.id, w.visualization.query] as const] : [])))
  const sources = new Map<number, Awaited<ReturnType<typeof findDataSource>>>()
  const hashes = new Map<number, { queryId: number; hash: string }>()
  for (const w of view.widgets) {
    const query = queries.get(w.id)
    if (w.kind !== 'chart' || !query || query.data_source_id == null) continue
    if (!sources.has(query.data_source_id)) sources.set(query.data_source_id, await findDataSource(deps.sql, orgId, query.data_source_id))
    const ds = sources.get(query.data_source_id)
    if (!ds) continue
    const text = await fillParameters(deps as Deps, orgId, query.query, (query.options.parameters ?? []) as ParameterDefinition[], values.get(w.id) ?? {})
      .catch(() => undefined)
    if (text === undefined) continue
    hashes.set(w.id, { queryId: query.id, hash: queryHash(textToRun(ds, text, !!query.options.apply_auto_limit)) })
  }
  const failed = await lastFailedRuns(deps.sql, orgId, [...hashes.values()])
  const out = new Map<number, string>()
  for (const w of view.widgets) {
    const key = hashes.get(w.id)
    const run = key && failed.find((f) => Number(f.query_id) === key.queryId && f.query_hash === key.hash)
    if (!run || w.kind !== 'chart') continue
    if (w.retrievedAt === null || w.html === null || run.finished_at.getTime() > Date.parse(w.retrievedAt)) out.set(w.id, run.error ?? 'The query failed.')
  }
  return out
}
