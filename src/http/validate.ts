import { BadRequest } from '../errors.ts'

// Checking values against schemas and the limits on stored fields are not HTTP concerns: services use them from
// src/validation/; they are handed on here for the routes and parsers that import them from this module.
export { jsonBytes, LIMITS, limitedJson, limitedText, tooLarge, tooLong, validate } from '../validation/index.ts'

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
