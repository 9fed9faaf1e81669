import { z } from 'zod'
import type { AdhocRunInput } from '../../executions/index.ts'
import type { SavedRunInput } from '../../queries/index.ts'
import { LIMITS, tooLong, validate } from '../validate.ts'

/** The request bodies that run queries, as the browser and API clients send them, turned into the services' plain input. */

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

/** The `p_<name>` arguments of an address as parameter values by name (the first value of each). */
export function parametersFromUrl(query: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([key]) => key.startsWith('p_') && key.length > 2)
    .map(([key, value]) => [key.slice(2), value]))
}

/**
 * `POST api/query_results`: new text typed in the editor; a 400 naming the first problem. The body's `parameters`
 * win whole when it has them (even `{}`); without them, the address's `p_` arguments are the values (reference §4.1).
 */
export function adhocRunInput(body: unknown, urlParameters: Record<string, string> = {}): AdhocRunInput {
  const b = validate(AdhocRunBody, body)
  return {
    query: b.query, dataSourceId: b.data_source_id ?? null, parameters: b.parameters ?? urlParameters, maxAge: b.max_age,
    applyAutoLimit: !!b.apply_auto_limit, queryId: typeof b.query_id === 'number' ? b.query_id : null,
  }
}

/** `POST api/queries/{id}/results`; an absent body is an empty one. */
export function savedRunInput(body: unknown): SavedRunInput {
  const b = validate(SavedRunBody, body ?? {})
  return { parameters: b.parameters ?? {}, maxAge: b.max_age, applyAutoLimit: b.apply_auto_limit ?? undefined }
}
