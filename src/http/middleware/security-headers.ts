import type { MiddlewareHandler } from 'hono'
import type { Env } from '../env.ts'

/** The policy for every response; a page with islands adds the nonce of its one inline boot script. */
export function contentSecurityPolicy(nonce?: string): string {
  return CSP.replace("script-src 'self'", `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}`)
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ')

/**
 * Browser hardening on every response. Set before the handler runs (headers added after a response exists make
 * Node's adapter rebuild it); a page meant for framing replaces them on its own response.
 */
export const securityHeaders = (): MiddlewareHandler<Env> =>
  async function securityHeaders(c, next) {
    c.header('Content-Security-Policy', CSP)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    c.header('X-Frame-Options', 'DENY')
    await next()
  }
