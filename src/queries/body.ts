import { z } from 'zod'
import { BadRequest } from '../errors.ts'
import { validate } from '../http/validate.ts'
import { ScheduleSchema } from '../schedules/schedule.ts'
import type { ParameterDefinition, QueryOptions } from './store.ts'

export const DEFAULT_QUERY_NAME = 'New Query'

const ID = (field: string) => {
  const message = `${field} must be a positive whole number.`
  return z.union([z.number({ error: message }), z.string({ error: message }).regex(/^\d{1,15}$/, message).transform(Number)], { error: message })
    .pipe(z.number().int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message))
}

const Name = z.string({ error: 'name must be text.' }).trim().max(255, 'Name: This field is too long (at most 255 characters).')
const Description = z.string({ error: 'description must be text.' }).max(4096, 'description is too long (at most 4096 characters).')
const Text = z.string({ error: 'query must be text.' })
const Tags = z.array(z.string({ error: 'tags must be a list of texts.' }), { error: 'tags must be a list of texts.' })
  .max(100, 'A query has at most 100 tags.')

const PARAMETERS = 'options.parameters must be a list of objects, each with a name (and a text type).'
const isParameter = (p: unknown): p is ParameterDefinition =>
  typeof p === 'object' && p !== null && !Array.isArray(p) &&
  typeof (p as ParameterDefinition).name === 'string' && (p as ParameterDefinition).name !== '' &&
  ['string', 'undefined'].includes(typeof (p as ParameterDefinition).type)

// checked as a whole, so the message names the list rather than an item's index
const Options = z.looseObject({
  parameters: z.array(z.unknown(), { error: PARAMETERS }).refine((items) => items.every(isParameter), PARAMETERS).optional(),
  apply_auto_limit: z.boolean({ error: 'options.apply_auto_limit must be true or false.' }).optional(),
}, { error: 'options must be an object.' })

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

/** PostgreSQL text and jsonb cannot hold NUL; saying so beats a failed insert. */
function refuseNul(body: unknown) {
  if (JSON.stringify(body ?? null).includes('\\u0000')) throw new BadRequest('Text must not contain NUL characters.')
}

/** Tags are trimmed, de-duplicated, blanks dropped (spec 2 §5). */
export function cleanTags(tags: readonly string[] | null | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))]
}

export function parseCreateBody(body: unknown) {
  refuseNul(body)
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
  refuseNul(body)
  return validate(SaveBody, body ?? {})
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
