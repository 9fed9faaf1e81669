import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { principalForApiKey, principalForSession } from '../../credentials/index.ts'
import { knownShareToken } from '../../dashboards/index.ts'
import { currentOrg } from '../../orgs/index.ts'
import { CSRF_COOKIE, SESSION_COOKIE } from '../cookies.ts'
import type { Env } from '../env.ts'

/**
 * The key of `?api_key=`, `Authorization: Key <key>` or a bare `Authorization: <key>` (reference §1.4: the query
 * parameter wins; the established tool strips "Key " and takes any other header value as the key, and its clients
 * send both forms). A value with another scheme (`Bearer …`, `Basic …`) names no key: Sightline has no such scheme.
 */
export function apiKeyFrom(query: string | undefined, authorization: string | undefined): string | undefined {
  if (query) return query
  if (!authorization) return undefined
  const match = /^(?:Key\s+)?(\S+)$/i.exec(authorization.trim())
  return match?.[1]
}

/**
 * Works out who is calling and sets `c.get('principal')`; it never refuses a request itself (routes decide).
 * A live session cookie wins over an API key (the established tool lets the key win): a link carrying someone
 * else's `?api_key=` must not make a signed-in browser act as that other principal, nor can such a link move a
 * browser off its own session. Without a session, the key decides; unknown or revoked credentials leave the caller
 * anonymous.
 */
export const authenticate = (): MiddlewareHandler<Env> =>
  async function authenticate(c, next) {
    const deps = c.get('deps')
    c.set('org', await currentOrg(deps))
    const cookies = getCookie(c)
    const token = cookies[SESSION_COOKIE]
    const session = token ? await principalForSession(deps, token) : undefined
    if (session) {
      c.set('csrfCookie', cookies[CSRF_COOKIE])
      c.set('principal', session)
      c.set('sessionToken', token)
    } else {
      const apiKey = apiKeyFrom(c.req.query('api_key'), c.req.header('authorization'))
      // a public dashboard's calls carry its share token: once known as one, it is no user's key to look up
      const principal = apiKey && !knownShareToken(deps, apiKey) ? await principalForApiKey(deps, apiKey) : undefined
      c.set('principal', principal)
      c.set('objectApiKey', principal ? undefined : apiKey)
    }
    await next()
  }
