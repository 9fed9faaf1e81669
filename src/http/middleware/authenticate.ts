import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { principalForApiKey, principalForSession } from '../../auth/service.ts'
import { currentOrg } from '../../orgs/service.ts'
import { CSRF_COOKIE, SESSION_COOKIE } from '../cookies.ts'
import type { Env } from '../env.ts'

/** The key of `Authorization: Key <key>` or `?api_key=` (reference §1.4: the query parameter wins). */
export function apiKeyFrom(query: string | undefined, authorization: string | undefined): string | undefined {
  if (query) return query
  if (!authorization) return undefined
  const match = /^Key\s+(\S+)$/i.exec(authorization.trim())
  return match?.[1]
}

/**
 * Works out who is calling and sets `c.get('principal')`; it never refuses a request itself (routes decide).
 * An API key, when given, wins over a session cookie. Unknown or revoked credentials leave the caller anonymous.
 */
export const authenticate = (): MiddlewareHandler<Env> =>
  async function authenticate(c, next) {
    const deps = c.get('deps')
    c.set('org', await currentOrg(deps))
    const apiKey = apiKeyFrom(c.req.query('api_key'), c.req.header('authorization'))
    if (apiKey) {
      const principal = await principalForApiKey(deps, apiKey)
      c.set('principal', principal)
      c.set('objectApiKey', principal ? undefined : apiKey)
    } else {
      const cookies = getCookie(c)
      const token = cookies[SESSION_COOKIE]
      c.set('csrfCookie', cookies[CSRF_COOKIE])
      const principal = token ? await principalForSession(deps, token) : undefined
      c.set('principal', principal)
      c.set('sessionToken', principal ? token : undefined)
    }
    await next()
  }
