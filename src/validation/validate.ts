import { z } from 'zod'
import { BadRequest } from '../errors.ts'

export const bodyTexts = {
  notObject: 'The request body must be a JSON object.',
}

/**
 * A request body that must be a JSON object, for parsers that read its fields one by one: an array, a string, a
 * number or null is a 400, never read as "no fields" (which would make `[{…}]` act like an empty body).
 */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest(bodyTexts.notObject)
  return body as Record<string, unknown>
}

/** A value (a request body, a stored option) checked against a schema: the typed value, or a 400 naming the first problem. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  if (issue.code === 'unrecognized_keys') throw new BadRequest(`Unknown field: ${issue.keys.join(', ')}.`)
  if (!issue.path.length && issue.code === 'invalid_type') throw new BadRequest(bodyTexts.notObject)
  const field = issue.path.join('.')
  // messages written for a field already name it ("Name: This field is required.")
  const named = !field || issue.message.toLowerCase().includes(String(issue.path.at(-1)).toLowerCase())
  throw new BadRequest(named ? issue.message : `${field}: ${issue.message}`)
}

// ---- Limits on stored fields: one table, so every parser and the README say the same numbers ----

/** The most a stored field may hold: characters for texts, bytes of JSON for options. */
export const LIMITS = {
  /** Names of queries, visualizations, data sources and snippets' triggers. */
  name: 255,
  /** A person's name (as setup and the profile form have always allowed). */
  userName: 200,
  description: 4_096,
  /** Query text and snippet text: about 2,500 lines of SQL. Every list of queries carries it. */
  queryText: 100_000,
  tag: 255,
  tags: 100,
  parameters: 100,
  /** A query's options (its parameter definitions), as JSON. Lists of queries carry them too. */
  queryOptionsBytes: 100_000,
  /** A visualization's options (columns, series, colours …), as JSON. */
  visualizationOptionsBytes: 500_000,
  /** A data source's options (host, user, certificates …), as JSON. */
  dataSourceOptionsBytes: 100_000,
} as const

const count = (n: number) => n.toLocaleString('en-US')

/** "Query text is too long (at most 100,000 characters)." */
export const tooLong = (label: string, max: number) => `${label} is too long (at most ${count(max)} characters).`

/** "Visualization options are too large (at most 500,000 bytes as JSON)." */
export const tooLarge = (label: string, maxBytes: number) => `${label} are too large (at most ${count(maxBytes)} bytes as JSON).`

/** Text of at most `max` characters; the message names the field and its limit. */
export const limitedText = (label: string, max: number, wrongType = `${label} must be text.`) =>
  z.string({ error: wrongType }).max(max, tooLong(label, max))

/** The size of a value as the JSON that is stored and sent back. */
const utf8 = new TextEncoder()
export const jsonBytes = (value: unknown): number => utf8.encode(JSON.stringify(value) ?? '').length

/** Any JSON value whose serialized form is at most `maxBytes` bytes. */
export const limitedJson = (label: string, maxBytes: number) =>
  z.unknown().refine((value) => value === undefined || jsonBytes(value) <= maxBytes, tooLarge(label, maxBytes))
