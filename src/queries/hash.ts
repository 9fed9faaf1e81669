import { queryHash } from '../executions/index.ts'
import { applyAutoLimit, getRunner } from '../runners/index.ts'
import { applyParameters, type ParameterDefinition } from '../shared/parameters/index.ts'
import type { QueryOptions } from './store.ts'

/**
 * The `query_hash` of a saved query: the hash of the text its source would run with the parameters' default
 * values, so a stored result with the same hash and source is this query's result (reference §3.1); a scheduled
 * refresh runs exactly that text. Without usable defaults the raw text is hashed. The LIMIT is part of the text
 * when the query asks for it and its engine supports it.
 * @example savedQueryHash('select 1', { apply_auto_limit: true }, 'pg') === queryHash('select 1 LIMIT 1000')
 */
export function savedQueryHash(text: string, options: Pick<QueryOptions, 'apply_auto_limit' | 'parameters'>, runnerType: string | null): string {
  const runner = runnerType ? getRunner(runnerType) : undefined
  const filled = withDefaults(text, Array.isArray(options.parameters) ? options.parameters : [])
  const limited = runner?.supportsAutoLimit && options.apply_auto_limit === true ? applyAutoLimit(filled) : filled
  return queryHash(limited)
}

function withDefaults(text: string, defs: ParameterDefinition[]): string {
  if (!defs.length) return text
  try {
    // dynamic dates resolve to "now", so such a query's hash matches the run of the moment it was saved
    return applyParameters(text, defs, {}, { now: new Date() })
  } catch {
    return text
  }
}
