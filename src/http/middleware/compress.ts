import type { MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import type { Env } from '../env.ts'

/**
 * gzip for clients that accept it; others (API scripts, load balancers' health checks) skip the middleware
 * entirely, so their responses are never rebuilt.
 */
export const compressForBrowsers = (): MiddlewareHandler<Env> => {
  const gzip = compress({ encoding: 'gzip', threshold: 2048 })
  return async function compressForBrowsers(c, next) {
    if (/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) return gzip(c, next)
    await next()
  }
}
