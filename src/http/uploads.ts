import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { BadRequest, PayloadTooLarge } from '../errors.ts'
import type { Env } from './env.ts'

/**
 * Addresses that take uploaded files (a Files source's, an import's files of a git export): larger than any other request body, so the app's body limit
 * (SIGHTLINE_MAX_BODY_BYTES) leaves them to `uploadLimit`, which each such route puts after its rights check.
 */
export const UPLOAD_PATHS = [/^\/(api\/)?data_sources\/\d+\/files$/, /^\/api\/imports$/]

export const isUploadPath = (path: string) => UPLOAD_PATHS.some((p) => p.test(path))

/** SIGHTLINE_MAX_UPLOAD_BYTES on an upload's body: a declared larger one is refused before it is read. */
export const uploadLimit = (): MiddlewareHandler<Env> => (c, next) => {
  const max = c.get('deps').config.maxUploadBytes
  const message = `The file is too large (at most ${max.toLocaleString('en-US')} bytes).`
  return bodyLimit({ maxSize: max, onError: () => { throw new PayloadTooLarge(message) } })(c, next)
}

/** The files of a multipart form's `file` fields, each with its name and bytes. */
export async function uploadedFiles<E extends Env>(c: Context<E>): Promise<{ name: string; content: Buffer }[]> {
  if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) throw new BadRequest('Send the files as multipart/form-data, in fields named "file".')
  const body = await c.req.parseBody({ all: true })
  const fields = body.file === undefined ? [] : Array.isArray(body.file) ? body.file : [body.file]
  const files = fields.filter((f): f is File => typeof f === 'object' && f !== null && 'arrayBuffer' in f)
  if (!files.length) throw new BadRequest('Choose a file to upload.')
  return Promise.all(files.map(async (f) => ({ name: f.name, content: Buffer.from(await f.arrayBuffer()) })))
}
