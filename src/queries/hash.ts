import { queryHash } from '../executions/hash.ts'
import { applyAutoLimit } from '../runners/auto-limit.ts'
import { getRunner } from '../runners/registry.ts'

/**
 * The `query_hash` of a saved query: the hash of the text its source would run, so a stored result with the same
 * hash and source is this query's result (reference §3.1). The LIMIT is part of the text when the query asks for
 * it and its engine supports it.
 * @example savedQueryHash('select 1', { apply_auto_limit: true }, 'pg') === queryHash('select 1 LIMIT 1000')
 */
export function savedQueryHash(text: string, options: { apply_auto_limit?: boolean }, runnerType: string | null): string {
  const runner = runnerType ? getRunner(runnerType) : undefined
  const limited = runner?.supportsAutoLimit && options.apply_auto_limit === true ? applyAutoLimit(text) : text
  return queryHash(limited)
}
