import type { MiddlewareHandler } from 'hono'
import type { Env } from '../env.ts'

const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ')

/** Browser hardening on every response; pages meant for embedding relax frame-ancestors themselves. */
export const securityHeaders = (): MiddlewareHandler<Env> =>
  async function securityHeaders(c, next) {
    await next()
    if (!c.res.headers.has('Content-Security-Policy')) c.header('Content-Security-Policy', CSP)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    if (!c.res.headers.has('X-Frame-Options')) c.header('X-Frame-Options', 'DENY')
  }
