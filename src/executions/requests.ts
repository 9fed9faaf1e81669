import { z } from 'zod'
import { getAccessible, requireRun } from '../data-sources/service.ts'
import type { Deps } from '../deps.ts'
import { LIMITS, tooLong, validate } from '../http/validate.ts'
import type { Principal } from '../permissions/principal.ts'
import { applyParameters, ParameterError, type ParameterDefinition } from '../shared/parameters/index.ts'
import { dropdownValuesFor } from './dropdowns.ts'
import { execute, refusal, type Outcome } from './service.ts'
import { savedParameterDefinitions } from './store.ts'

const id = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)], { error: 'must be a positive whole number.' })

/** `max_age` as the browser sends it: seconds, -1 for any age; null and absent mean -1. */
const maxAge = z.union([z.number().int().min(-1), z.string().regex(/^-?\d+$/).transform(Number), z.null()],
  { error: 'must be a whole number of seconds (-1: any age, 0: always run).' })
  .optional().transform((v) => (v == null ? -1 : Math.max(-1, v)))

const Values = z.record(z.string(), z.unknown(), { error: 'must be an object of parameter values by name.' })

export const AdhocRunBody = z.object({
  // what can be run can be saved: the same limit as a saved query's text
  query: z.string({ error: 'Query text is required.' }).max(LIMITS.queryText, tooLong('Query text', LIMITS.queryText)),
  data_source_id: id.nullish(),
  parameters: Values.nullish(),
  max_age: maxAge,
  apply_auto_limit: z.boolean().nullish(),
  query_id: z.union([id, z.literal('adhoc')]).nullish(),
})

export const SavedRunBody = z.object({
  id: id.nullish(),
  queryId: id.nullish(),
  parameters: Values.nullish(),
  max_age: maxAge,
  apply_auto_limit: z.boolean().nullish(),
})

/** Parameter values in place, with the spec's texts for what is missing or does not fit. */
export async function fillParameters(deps: Deps, orgId: number, text: string, defs: readonly ParameterDefinition[], values: Record<string, unknown>): Promise<string> {
  const dropdownValues = await dropdownValuesFor(deps.sql, orgId, defs)
  try {
    return applyParameters(text, defs, values, { now: new Date(), dropdownValues })
  } catch (error) {
    if (error instanceof ParameterError) throw refusal(error.message)
    throw error
  }
}

/**
 * `POST api/query_results`: new text typed in the editor. It needs full access to the source (view-only groups may
 * only read results) and the execute permission. When the text belongs to a saved query the caller can see, its
 * parameter definitions type the values (so dynamic dates resolve); otherwise every placeholder takes its value as given.
 */
export async function runAdhoc(deps: Deps, principal: Principal, body: unknown): Promise<Outcome> {
  const input = validate(AdhocRunBody, body)
  if (input.data_source_id == null) throw refusal('Please select data source to run this query.')
  const ds = await getAccessible(deps, principal, input.data_source_id)
  requireRun(principal, ds)
  const queryId = typeof input.query_id === 'number' ? input.query_id : null
  const defs = queryId != null ? await savedParameterDefinitions(deps.sql, principal.orgId, queryId) : []
  const text = await fillParameters(deps, principal.orgId, input.query, defs, input.parameters ?? {})
  return execute(deps, {
    orgId: principal.orgId, dataSource: ds, text, queryId, userId: principal.id,
    maxAge: input.max_age, applyAutoLimit: !!input.apply_auto_limit,
  })
}
