import { findDataSource } from '../data-sources/index.ts'
import type { CoreDeps } from '../deps.ts'
import { submit, dropdownValuesFor } from '../executions/index.ts'
import { HttpError } from '../errors.ts'
import { log } from '../log.ts'
import { applyParameters, ParameterError } from '../shared/parameters/index.ts'
import { nextRunAt } from './next-run.ts'
import { planRefresh, scheduledRunEnded } from './service.ts'
import { findRefreshable } from './store.ts'

/**
 * A query's refresh came due: run it with its parameters' default values as its owner (reference §5.2), and plan
 * the next refresh at once, so the chain of refreshes never depends on this run finishing.
 */
export async function refreshQuery(ctx: Pick<CoreDeps, 'sql' | 'secretKey'>, queryId: number, now = new Date()) {
  const q = await findRefreshable(ctx.sql, queryId)
  if (!q || q.is_archived || !q.schedule_next_at || q.data_source_id == null) {
    if (q) await planRefresh(ctx.sql, q.id, null)
    return
  }
  // moved later since this job was planned (graphile replaces keyed jobs, but a running one cannot be replaced)
  if (q.schedule_next_at.getTime() > now.getTime() + 1000) return planRefresh(ctx.sql, q.id, q.schedule_next_at)
  const dueAt = q.schedule_next_at
  await planRefresh(ctx.sql, q.id, nextRunAt(q.schedule, dueAt, now, q.schedule_failures))
  const ds = await findDataSource(ctx.sql, q.org_id, q.data_source_id)
  if (!ds || ds.paused) return // a paused source skips its refreshes without counting them as failures
  const defs = q.options.parameters ?? []
  try {
    const text = applyParameters(q.query, defs, {}, { now, dropdownValues: await dropdownValuesFor(ctx.sql, q.org_id, defs) })
    await submit(ctx, {
      orgId: q.org_id, dataSource: ds, text, queryId: q.id, userId: q.user_id, maxAge: 0,
      applyAutoLimit: !!q.options.apply_auto_limit, scheduled: true,
    })
  } catch (error) {
    // refused before it could run (invalid default values, empty text): counts as a failed run
    if (!(error instanceof ParameterError) && !(error instanceof HttpError)) throw error
    const message = error instanceof ParameterError ? `Skipping refresh of ${q.id} because of invalid parameters: ${error.message}` : error.message
    log.warn('scheduled refresh refused', { query: q.id, error: message })
    const run = { id: null, org_id: q.org_id, user_id: q.user_id, query_id: q.id, scheduled: true, created_at: dueAt }
    await scheduledRunEnded(ctx.sql, run, { error: message })
  }
}
