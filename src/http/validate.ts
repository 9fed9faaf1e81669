import { z } from 'zod'
import { BadRequest } from '../errors.ts'

/** A request body checked against a schema: the typed value, or a 400 naming the first problem. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  if (issue.code === 'unrecognized_keys') throw new BadRequest(`Unknown field: ${issue.keys.join(', ')}.`)
  if (!issue.path.length && issue.code === 'invalid_type') throw new BadRequest('The request body must be a JSON object.')
  const field = issue.path.join('.')
  // messages written for a field already name it ("Name: This field is required.")
  const named = !field || issue.message.toLowerCase().includes(String(issue.path.at(-1)).toLowerCase())
  throw new BadRequest(named ? issue.message : `${field}: ${issue.message}`)
}

/**
 * How deep a JSON body may nest. Real bodies (a chart's options, a parameter's settings) stay under 10 levels;
 * thousands of levels would overflow the stack of whatever walks the value next (zod, JSON.stringify, jsonb).
 */
export const MAX_JSON_DEPTH = 64

export const jsonTexts = {
  notJson: 'The request body must be JSON.',
  tooDeep: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
  nul: 'Text must not contain NUL characters.',
  notForm: 'The form could not be read.',
}

/**
 * One pass over JSON text before it is parsed: nesting deeper than MAX_JSON_DEPTH, or a \u0000 escape inside a
 * string (PostgreSQL's text and jsonb cannot hold NUL, so such a value could never be stored or searched).
 */
function refuseUnstorableJson(text: string) {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c /* \ */) {
        if (text.startsWith('u0000', i + 1)) throw new BadRequest(jsonTexts.nul)
        i++
      } else if (ch === 0x22 /* " */) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > MAX_JSON_DEPTH) throw new BadRequest(jsonTexts.tooDeep)
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth--
  }
}

/** JSON text as a value, or a 400: not JSON, nested too deeply, or holding a NUL character. */
export function parseJsonText(text: string): unknown {
  refuseUnstorableJson(text)
  try {
    return JSON.parse(text)
  } catch {
    throw new BadRequest(jsonTexts.notJson)
  }
}

/** The JSON body, or a 400 when it is not JSON (or cannot be stored: see parseJsonText). */
export async function jsonBody(req: { text: () => Promise<string> }): Promise<unknown> {
  return parseJsonText(await req.text())
}

/**
 * A posted form's fields, or a 400: a body that is no form (a broken multipart one), or a field holding a NUL
 * character, which no stored text and no lookup by text can take.
 */
export async function formBody(req: { parseBody: () => Promise<Record<string, unknown>> }): Promise<Record<string, unknown>> {
  let form: Record<string, unknown>
  try {
    form = await req.parseBody()
  } catch {
    throw new BadRequest(jsonTexts.notForm)
  }
  for (const value of Object.values(form)) {
    if (typeof value === 'string' && hasNul(value)) throw new BadRequest(jsonTexts.nul)
  }
  return form
}

/** A positive integer path parameter, or 404 (an id that cannot exist names nothing). */
export function idParam(value: string | undefined, NotFoundError: new () => Error): number {
  const id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError()
  return id
}

/** Text from a query string or a form as PostgreSQL can take it: NUL characters (text cannot hold them) dropped. */
export const withoutNul = (text: string): string => text.replaceAll('\u0000', '')

/** Whether a text holds a NUL character, which no stored value can (forms are refused or fail with their own message). */
export const hasNul = (text: string): boolean => text.includes('\u0000')

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
