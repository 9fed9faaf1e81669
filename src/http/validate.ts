import type { z } from 'zod'
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

/** The JSON body, or a 400 when it is not JSON. */
export async function jsonBody(req: { json: () => Promise<unknown> }): Promise<unknown> {
  try {
    return await req.json()
  } catch {
    throw new BadRequest('The request body must be JSON.')
  }
}

/** A positive integer path parameter, or 404 (an id that cannot exist names nothing). */
export function idParam(value: string | undefined, NotFoundError: new () => Error): number {
  const id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError()
  return id
}
