import { findDataSource, type DataSourceRow } from '../data-sources/index.ts'
import type { CoreDeps } from '../deps.ts'
import { dispatch, dropdownValuesFor, queueScheduled, type DueRun } from '../executions/index.ts'
import { log } from '../log.ts'
import { applyParameters, ParameterError } from '../shared/parameters/index.ts'
import { nextRunAt } from './next-run.ts'
import { planRefresh, planRefreshes, scheduledRunEnded } from './service.ts'
import { findRefreshable, lockDue, type RefreshableQueryRow } from './store.ts'

type Ctx = Pick<CoreDeps, 'sql' | 'secretKey'>

/** How many due queries one transaction takes: their executions start as soon as it commits, while the next batch is read. */
const BATCH = 250

/** A refresh job may run up to this much ahead of its query's due time (graphile's clock and ours agree to about that). */
const EARLY_MS = 1000

/**
 * A query's refresh came due: this refreshes every query due by now, its own among them, batch by batch. Queries
 * scheduled "on the hour" all come due together, and one job taking them all queues their runs in a few statements,
 * where a job each would cost a job fetch, a handful of round trips and a completion per query. The other due jobs
 * are moved on to their next due times in the same transaction, so they are not fetched at all; a job already
 * fetched finds its query taken (locked or no longer due) and does nothing.
 *
 * Each query runs with its parameters' default values as its owner (reference §5.2), and its next refresh is planned
 * in the transaction that queues its run, so the chain of refreshes never depends on the run finishing.
 */
export async function refreshQuery(ctx: Ctx, queryId: number, now = new Date()) {
  let taken = false
  for (;;) {
    const batch = await refreshBatch(ctx, now)
    taken ||= batch.ids.includes(queryId)
    if (batch.ids.length < BATCH) break
  }
  if (!taken) await replanUntaken(ctx, queryId, now)
}

/** This job's own query was not due (moved later since the job was planned, or no longer scheduled), or another job holds it. */
async function replanUntaken(ctx: Ctx, queryId: number, now: Date) {
  const q = await findRefreshable(ctx.sql, queryId)
  if (!q) return
  if (q.is_archived || !q.schedule_next_at || q.data_source_id == null) return planRefresh(ctx.sql, q.id, null)
  // graphile replaces keyed jobs, but a running one cannot be replaced: plan it again where the query says
  if (q.schedule_next_at.getTime() > now.getTime() + EARLY_MS) return planRefresh(ctx.sql, q.id, q.schedule_next_at)
  // still due: the refresh holding it plans it
}

/** One transaction: up to BATCH due queries locked, their next refreshes planned, their runs queued; then dispatched. */
async function refreshBatch(ctx: Ctx, now: Date): Promise<{ ids: number[] }> {
  const refused: { row: RefreshableQueryRow; message: string }[] = []
  const { ids, sources } = await ctx.sql.begin(async (tx) => {
    const due = await lockDue(tx, new Date(now.getTime() + EARLY_MS), BATCH)
    const sourcesById = new Map<number, Promise<DataSourceRow | undefined>>()
    const runs: DueRun[] = []
    const plans: { id: number; due: Date | null }[] = []
    const rows = new Map<number, RefreshableQueryRow>()
    for (const q of due) {
      rows.set(q.id, q)
      // archived queries and queries without a source are not refreshed
      if (q.is_archived || q.data_source_id == null) {
        plans.push({ id: q.id, due: null })
        continue
      }
      plans.push({ id: q.id, due: nextRunAt(q.schedule, q.schedule_next_at, now, q.schedule_failures) })
      const sourceId = q.data_source_id
      if (!sourcesById.has(sourceId)) sourcesById.set(sourceId, findDataSource(tx, q.org_id, sourceId))
      const ds = await sourcesById.get(sourceId)!
      if (!ds || ds.paused) continue // a paused source skips its refreshes without counting them as failures
      const defs = q.options.parameters ?? []
      try {
        const dropdownValues = defs.length ? await dropdownValuesFor(ctx.sql, q.org_id, defs) : {}
        const text = applyParameters(q.query, defs, {}, { now, dropdownValues })
        runs.push({ orgId: q.org_id, dataSource: ds, text, queryId: q.id, userId: q.user_id, applyAutoLimit: !!q.options.apply_auto_limit })
      } catch (error) {
        if (!(error instanceof ParameterError)) throw error
        refused.push({ row: q, message: `Skipping refresh of ${q.id} because of invalid parameters: ${error.message}` })
      }
    }
    await planRefreshes(tx, plans)
    const queued = await queueScheduled(tx, runs)
    for (const r of queued.refused) refused.push({ row: rows.get(r.queryId)!, message: r.message })
    return { ids: due.map((q) => q.id), sources: queued.sources }
  })
  // once committed, so a source's lock is never held across this transaction (sql/migrations/0008)
  for (const id of sources) await dispatch(ctx.sql, id)
  // refused before they could run: each counts as a failed run (and backs its next refresh off)
  for (const { row: q, message } of refused) {
    log.warn('scheduled refresh refused', { query: q.id, error: message })
    const run = { id: null, org_id: q.org_id, user_id: q.user_id, query_id: q.id, scheduled: true, created_at: q.schedule_next_at! }
    await scheduledRunEnded(ctx.sql, run, { error: message })
  }
  return { ids }
}
