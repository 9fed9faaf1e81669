import { findById as findDataSource } from '../data-sources/index.ts'
import type { CoreDeps } from '../deps.ts'
import { dropdownValuesFor, submit } from '../executions/index.ts'
import { dataSourceTypes } from '../runners/index.ts'
import { refreshableQuery } from './objects-store.ts'
import { applyParameters } from '../shared/parameters/index.ts'
import { log } from '../log.ts'

/**
 * Once an import is in, every query shown on a dashboard runs once (with its parameters' defaults, as its owner), so
 * dashboards are not blank on first view. A query that cannot run (a source type Sightline lacks, a paused source,
 * bad defaults) is left for its first viewer; the count of queued runs goes into the report.
 */
export async function refreshDashboardQueries(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, queryIds: number[]): Promise<number> {
  let queued = 0
  for (const id of queryIds) {
    const q = await refreshableQuery(deps.sql, id)
    if (!q || q.is_archived || q.data_source_id == null) continue
    const ds = await findDataSource(deps.sql, q.org_id, q.data_source_id)
    if (!ds || ds.paused || !dataSourceTypes.get(ds.type)) continue
    try {
      const defs = q.options.parameters ?? []
      const text = applyParameters(q.query, defs, {}, { now: new Date(), dropdownValues: await dropdownValuesFor(deps.sql, q.org_id, defs) })
      await submit(deps, { orgId: q.org_id, dataSource: ds, text, queryId: q.id, userId: q.user_id, maxAge: 0, applyAutoLimit: !!q.options.apply_auto_limit })
      queued++
    } catch (error) {
      log.warn('imported query not refreshed', { query: id, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return queued
}
