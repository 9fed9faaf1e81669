import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { csrfTokenFor, principalForSession } from '../../credentials/index.ts'
import { proxySignIn } from '../../sign-in/index.ts'
import { clientIp, fromTrustedProxy } from '../client-ip.ts'
import { setCsrfCookie, setSessionCookie } from '../cookies.ts'
import type { Env } from '../env.ts'

/**
 * A caller nobody signed in yet, behind an access proxy that vouches for them (src/sign-in/proxy.ts): signed in on
 * this request, with a session cookie for the next ones. Does nothing unless SIGHTLINE_REMOTE_USER_HEADER or the JWT
 * settings are on.
 */
export const signInFromProxy = (): MiddlewareHandler<Env> =>
  async function signInFromProxy(c, next) {
    const deps = c.get('deps')
    const org = c.get('org')
    if (!c.get('principal') && org && (deps.config.remoteUserHeader || org.settings.auth_jwt_login_enabled)) {
      const token = await proxySignIn(deps, org, {
        fromTrustedProxy: fromTrustedProxy(c), header: (name) => c.req.header(name), cookie: (name) => getCookie(c, name),
        userAgent: c.req.header('user-agent'), ip: clientIp(c),
      })
      const principal = token ? await principalForSession(deps, token) : undefined
      if (token && principal) {
        const csrf = csrfTokenFor(deps, token)
        setSessionCookie(c, token, undefined)
        setCsrfCookie(c, csrf)
        c.set('principal', principal)
        c.set('sessionToken', token)
        c.set('csrfCookie', csrf)
      }
    }
    await next()
  }
