import type { Db } from '../db/index.ts'
import type { DataSourceRow } from '../data-sources/index.ts'
import { EMPTY_QUERY_MESSAGE } from '../shared/parameters/index.ts'
import { insertScheduled, type ScheduledRun } from './batch-store.ts'
import { queryHash } from './hash.ts'
import { textToRun } from './service.ts'

/** A saved query's refresh, as the scheduler hands it over: its text with its parameters' default values in place. */
export interface DueRun {
  orgId: number
  dataSource: DataSourceRow
  text: string
  queryId: number
  userId: number
  applyAutoLimit: boolean
}

/**
 * Queues the refreshes that came due together, in the caller's transaction and one statement, as `submit` queues
 * one (always run, never from a cached result; joined to an identical run in flight). Returns the sources to
 * dispatch once the transaction has committed (never inside it: sql/migrations/0008), and the refreshes refused
 * before they could run (an empty text), which count as failed runs.
 */
export async function queueScheduled(db: Db, due: DueRun[]): Promise<{ sources: number[]; refused: { queryId: number; message: string }[] }> {
  const runs: ScheduledRun[] = []
  const refused: { queryId: number; message: string }[] = []
  for (const d of due) {
    const text = textToRun(d.dataSource, d.text, d.applyAutoLimit)
    if (!text.trim()) refused.push({ queryId: d.queryId, message: EMPTY_QUERY_MESSAGE })
    else runs.push({ orgId: d.orgId, dataSourceId: d.dataSource.id, queryId: d.queryId, userId: d.userId, queryHash: queryHash(text), queryText: text })
  }
  return { sources: await insertScheduled(db, runs), refused }
}
