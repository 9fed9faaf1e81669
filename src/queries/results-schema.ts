import type { Db } from '../db/index.ts'
import { viewerOf } from './access.ts'
import { referenceableQueries } from './store.ts'
import type { Principal } from '../permissions/index.ts'
import type { TableSchema } from '../runners/index.ts'

/** The newest queries a Query Results source's schema lists: enough to browse, bounded for a large organization. */
export const RESULTS_SCHEMA_TABLES = 1000

/** A table of the Query Results schema: a query as `query_N`, named in its description. */
export type ResultsSchemaTable = TableSchema & { description: string }

/**
 * The schema of a Query Results source as this member sees it: the queries they may reference (those on sources
 * their groups have, as `visibleTo` says, which is what a `query_N` reference checks), newest first and at most
 * RESULTS_SCHEMA_TABLES, each `query_N` with its name, and the columns of its latest result when they may read that
 * result (a Query Results result: every source it read), else none. Built for each request: it depends on who asks,
 * so it is never the source's one cached schema.
 */
export async function resultsSchemaFor(db: Db, principal: Principal): Promise<ResultsSchemaTable[]> {
  const rows = await referenceableQueries(db, viewerOf(principal), RESULTS_SCHEMA_TABLES)
  return rows.map((q) => ({
    name: `query_${q.id}`, description: q.name,
    columns: (q.columns ?? []).map((c) => (c.type ? { name: c.name, type: c.type } : { name: c.name })),
  }))
}
