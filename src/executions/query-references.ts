import { principalToRunAs } from '../credentials/index.ts'
import { openedConfig, accessThroughGroups, findDataSource, runnerConfig } from '../data-sources/index.ts'
import type { Sql } from '../db/index.ts'
import { isAdmin, sourceAccess } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { mayReadSourcesOf, findResult, readChunks } from '../results/index.ts'
import { errorMessage, getRunner, timeLimitMs, RESULTS_TYPE, batchRowCount, RunnerError, type QueryResultsResolver, type ReferencedResult, type RowBatch, type RunUser } from '../runners/index.ts'
import type { QueryReference } from '../runners/index.ts'
import { applyParameters, ParameterError } from '../shared/parameters/index.ts'
import { dropdownValuesFor } from './dropdowns.ts'
import { findReferencedQuery as findQuery, type ReferencedQueryRow as QueryRow } from './store.ts'

/** How deep `query_N` references may nest: a Query Results query reading one that reads another … */
export const MAX_REFERENCE_DEPTH = 5

export interface ReferenceScope {
  sql: Sql
  secretKey: string
  orgId: number
  orgTimeLimitSeconds: number
  /** The user the run is for: the caller, or the query's owner for a schedule. Null (a key's run) reads nothing. */
  userId: number | null
  /** Their e-mail and name, for engines that act as them (runners' RunOptions.user). */
  user?: RunUser
  maxResultRows: number
  maxCellBytes: number
  /** Every source the run read, at every depth: the stored result is readable only by who may read them all. */
  sources: Set<number>
}

/** A refusal about a reference itself, passed up unchanged through nested runs. */
export class QueryReferenceError extends RunnerError {}

export const referenceTexts = {
  notFound: (id: number) => `Query id ${id} not found.`,
  noAccess: (id: number) => `You do not have access to query id ${id}.`,
  noCache: (id: number) => `No cached result available for query ${id}.`,
  noUser: 'Query Results queries run only for a user: a query key or a shared dashboard cannot run them.',
  cycle: (chain: number[]) => `Query references form a cycle: ${chain.map((id) => `query ${id}`).join(' → ')}.`,
  tooDeep: (id: number) => `Query references nest more than ${MAX_REFERENCE_DEPTH} levels deep (at query id ${id}).`,
  failed: (id: number, message: string) => `Failed loading results for query id ${id}: ${message}`,
}

/**
 * The Query Results runner's way to other queries: each reference is checked (same organization, a source the user
 * may read, no cycle, not too deep), then read from its latest stored result or run now on its own source, as the
 * user the outer run is for. `chain` is the queries being resolved, outermost first.
 */
export function referenceResolver(scope: ReferenceScope, chain: number[] = []): QueryResultsResolver {
  let principal: Promise<Principal | undefined> | undefined
  const runAs = () => (principal ??= scope.userId == null ? Promise.resolve(undefined) : principalToRunAs(scope.sql, scope.userId))
  return {
    async load(reference, signal) {
      const id = reference.queryId
      if (scope.userId == null) throw new QueryReferenceError(referenceTexts.noUser)
      if (chain.includes(id)) throw new QueryReferenceError(referenceTexts.cycle([...chain.slice(chain.indexOf(id)), id]))
      if (chain.length >= MAX_REFERENCE_DEPTH) throw new QueryReferenceError(referenceTexts.tooDeep(id))
      const query = await findQuery(scope.sql, id)
      if (!query || query.org_id !== scope.orgId) throw new QueryReferenceError(referenceTexts.notFound(id))
      const user = await runAs()
      if (!user || user.orgId !== scope.orgId || query.data_source_id == null) throw new QueryReferenceError(referenceTexts.noAccess(id))
      const access = sourceAccess(user, isAdmin(user) ? undefined : await accessThroughGroups(scope.sql, query.data_source_id, user.groupIds))
      if (!access) throw new QueryReferenceError(referenceTexts.noAccess(id))
      scope.sources.add(query.data_source_id)
      if (reference.kind === 'cached') return cached(scope, user, id, query.latest_query_data_id)
      return live(scope, [...chain, id], reference, query, signal)
    },
  }
}

async function cached(scope: ReferenceScope, user: Principal, id: number, resultId: number | null): Promise<ReferencedResult> {
  const result = resultId == null ? undefined : await findResult(scope.sql, scope.orgId, resultId)
  if (!result) throw new QueryReferenceError(referenceTexts.noCache(id))
  // a stored Query Results result read other sources still: the user must be able to read those too
  if (!(await mayReadSourcesOf(scope.sql, user, result))) throw new QueryReferenceError(referenceTexts.noAccess(id))
  for (const source of result.source_ids ?? []) scope.sources.add(Number(source))
  return { columns: result.columns, batches: readChunks(scope.sql, result.id, result.row_count) }
}

async function live(scope: ReferenceScope, chain: number[], reference: QueryReference, query: QueryRow, signal: AbortSignal): Promise<ReferencedResult> {
  const id = query.id
  const ds = await findDataSource(scope.sql, scope.orgId, query.data_source_id!)
  const runner = ds && getRunner(ds.type)
  if (!ds || !runner) throw new QueryReferenceError(referenceTexts.failed(id, 'its data source is not available.'))
  const defs = Array.isArray(query.options.parameters) ? query.options.parameters : []
  let text: string
  try {
    const dropdownValues = await dropdownValuesFor(scope.sql, scope.orgId, defs)
    text = applyParameters(query.query, defs, reference.parameters, { now: new Date(), dropdownValues })
  } catch (error) {
    if (error instanceof ParameterError) throw new QueryReferenceError(referenceTexts.failed(id, error.message))
    throw error
  }
  const config = await openedConfig(scope, ds, { signal })
  try {
    const stream = await runner.run(config, text, {
      signal, timeoutMs: timeLimitMs(config, scope.orgTimeLimitSeconds), maxCellBytes: scope.maxCellBytes,
      queryResults: ds.type === RESULTS_TYPE ? referenceResolver(scope, chain) : undefined, user: scope.user,
    })
    return { columns: stream.columns, batches: capped(stream.batches, scope.maxResultRows) }
  } catch (error) {
    if (error instanceof QueryReferenceError || (error instanceof RunnerError && error.kind !== 'query' && error.kind !== 'connection')) throw error
    throw new QueryReferenceError(referenceTexts.failed(id, errorMessage(error)))
  }
}

/** At most `maxRows` rows of a referenced run, as a stored result would keep; leaving early releases its engine. */
async function* capped(batches: AsyncIterable<RowBatch>, maxRows: number): AsyncGenerator<RowBatch> {
  let left = maxRows
  for await (const batch of batches) {
    const n = batchRowCount(batch)
    if (n >= left) {
      yield Array.isArray(batch) ? batch.slice(0, left) : { json: batch.json.subarray(0, batch.ends[left - 1]), ends: batch.ends.subarray(0, left) }
      return
    }
    left -= n
    yield batch
  }
}
