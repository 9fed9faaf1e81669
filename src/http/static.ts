import type { MiddlewareHandler } from 'hono'
import type { Assets } from '../assets/index.ts'
import type { Env } from './env.ts'

/** Built assets from memory; content-hashed files are cached forever, gzip when the browser takes it. */
export const serveStatic = (assets: Assets): MiddlewareHandler<Env> =>
  async function serveStatic(c, next) {
    const file = assets.files.get(c.req.path)
    if (!file) return next()
    const gzip = file.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      Vary: 'Accept-Encoding',
    }
    if (gzip) headers['Content-Encoding'] = 'gzip'
    return c.body((gzip ? file.gzip! : file.body) as Uint8Array<ArrayBuffer>, 200, headers)
  }
