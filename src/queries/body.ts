import { z } from 'zod'
import { BadRequest } from '../errors.ts'
import { LIMITS, jsonBytes, limitedText, tooLarge, tooLong, validate } from '../validation/index.ts'
import { ScheduleSchema } from '../schedules/index.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'
import type { QueryOptions } from './store.ts'

export const DEFAULT_QUERY_NAME = 'New Query'

const ID = (field: string) => {
  const message = `${field} must be a positive whole number.`
  return z.union([z.number({ error: message }), z.string({ error: message }).regex(/^\d{1,15}$/, message).transform(Number)], { error: message })
    .pipe(z.number().int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message))
}

const Name = z.string({ error: 'name must be text.' }).trim().max(LIMITS.name, `Name: This field is too long (at most ${LIMITS.name} characters).`)
const Description = z.string({ error: 'description must be text.' })
  .max(LIMITS.description, `description is too long (at most ${LIMITS.description} characters).`)
const Text = limitedText('Query text', LIMITS.queryText, 'query must be text.')
const Tags = z.array(z.string({ error: 'tags must be a list of texts.' }), { error: 'tags must be a list of texts.' })
  .max(LIMITS.tags, `A query has at most ${LIMITS.tags} tags.`)
  .refine((tags) => tags.every((tag) => tag.length <= LIMITS.tag), tooLong('A tag', LIMITS.tag))

const PARAMETERS = 'options.parameters must be a list of objects, each with a name (and a text type).'
const isParameter = (p: unknown): p is ParameterDefinition =>
  typeof p === 'object' && p !== null && !Array.isArray(p) &&
  typeof (p as ParameterDefinition).name === 'string' && (p as ParameterDefinition).name !== '' &&
  ['string', 'undefined'].includes(typeof (p as ParameterDefinition).type)

// checked as a whole, so the message names the list rather than an item's index
const Options = z.looseObject({
  parameters: z.array(z.unknown(), { error: PARAMETERS }).refine((items) => items.every(isParameter), PARAMETERS)
    .refine((items) => items.length <= LIMITS.parameters, `A query has at most ${LIMITS.parameters} parameters.`).optional(),
  apply_auto_limit: z.boolean({ error: 'options.apply_auto_limit must be true or false.' }).optional(),
}, { error: 'options must be an object.' })
  // every list of queries carries their options: their size is bounded like the text's
  .refine((options) => jsonBytes(options) <= LIMITS.queryOptionsBytes, tooLarge('Query options', LIMITS.queryOptionsBytes))

/** POST /api/queries (reference §3.1). Keys the server owns (id, api_key, user …) are ignored, as clients send them back. */
const CreateBody = z.object({
  data_source_id: ID('data_source_id').optional(),
  query: Text.optional(),
  name: Name.nullish(),
  description: Description.nullish(),
  schedule: ScheduleSchema.nullish(),
  options: Options.optional(),
  tags: Tags.nullish(),
})

/** POST /api/queries/{id}: only what is given changes; null clears description, schedule and tags. */
const SaveBody = z.object({
  name: Name.min(1, 'Name: This field is required.').optional(),
  description: Description.nullish(),
  query: Text.optional(),
  data_source_id: ID('data_source_id').optional(),
  options: Options.optional(),
  schedule: ScheduleSchema.nullish(),
  tags: Tags.nullish(),
  is_draft: z.boolean({ error: 'is_draft must be true or false.' }).optional(),
  is_archived: z.boolean({ error: 'is_archived must be true or false.' }).optional(),
  version: z.number({ error: 'version must be a whole number.' }).int('version must be a whole number.').nullish(),
  latest_query_data_id: ID('latest_query_data_id').nullish(),
})

export type SaveInput = z.infer<typeof SaveBody>

/** Tags are trimmed, de-duplicated, blanks dropped (spec 2 §5). */
export function cleanTags(tags: readonly string[] | null | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))]
}

/** A body as jsonBody gave it: NUL characters and deep nesting were refused there, the limits are checked here. */
export function parseCreateBody(body: unknown) {
  const input = validate(CreateBody, body)
  if (input.data_source_id === undefined) throw new BadRequest('data_source_id: This field is required.')
  if (input.query === undefined) throw new BadRequest('query: This field is required.')
  return {
    data_source_id: input.data_source_id,
    query: input.query,
    name: input.name || DEFAULT_QUERY_NAME,
    description: input.description ?? null,
    schedule: input.schedule ?? null,
    options: (input.options ?? {}) as QueryOptions,
    tags: cleanTags(input.tags),
  }
}

export function parseSaveBody(body: unknown): SaveInput {
  return validate(SaveBody, body)
}

/** The queries that dropdown ('query') parameters point at; a queryId that cannot be an id is refused. */
export function dropdownQueryIds(parameters: ParameterDefinition[] | undefined, message: string): number[] {
  const ids: number[] = []
  for (const p of parameters ?? []) {
    if (p.type !== 'query' || p.queryId === undefined || p.queryId === null || p.queryId === '') continue
    const id = Number(p.queryId)
    if (!Number.isSafeInteger(id) || id <= 0) throw new BadRequest(message)
    ids.push(id)
  }
  return ids
}
