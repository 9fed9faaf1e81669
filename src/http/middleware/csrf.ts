import type { MiddlewareHandler } from 'hono'
import { csrfTokenFor, safeEqual } from '../../credentials/index.ts'
import { BadRequest, Forbidden } from '../../errors.ts'
import { setCsrfCookie } from '../cookies.ts'
import type { Env } from '../env.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

export const CSRF_MESSAGE = 'The CSRF token is missing or invalid. Please retry.'

/**
 * spec 1 §9: unsafe API calls authenticated by the session cookie must carry X-CSRF-TOKEN equal to the csrf_token
 * cookie, and that token must be the one bound to this session. API-key calls need none. Every response to a
 * signed-in browser (re)sets the cookie when it is missing or stale, which is what the client's /ping retry relies on.
 */
export const csrf = (): MiddlewareHandler<Env> =>
  async function csrf(c, next) {
    const token = c.get('sessionToken')
    if (token) {
      const expected = csrfTokenFor(c.get('deps'), token)
      if (c.get('csrfCookie') !== expected) setCsrfCookie(c, expected)
      if (!SAFE.has(c.req.method) && c.req.path.startsWith('/api/')) {
        const header = c.req.header('x-csrf-token') ?? ''
        if (!safeEqual(header, expected)) throw new BadRequest(CSRF_MESSAGE)
      }
    }
    await next()
  }

/**
 * Posted by another site by design: the SAML identity provider's answer. Its signature and the request it must
 * answer (checked in src/sign-in/saml.ts) are what vouch for it.
 */
const CROSS_SITE_POSTS = new Set(['/saml/callback'])

export const FORM_ORIGIN_MESSAGE = 'This form was sent from a page that cannot be trusted. Please reload the page and try again.'

/**
 * HTML form posts (sign-in, setup, sign-out) are refused when a browser says they come from another site.
 * Browsers always send Origin or Sec-Fetch-Site on cross-site posts; clients that send neither are not browsers.
 * `Origin: null` is what sandboxed frames, data: and file: pages send (an attacker can post from one), and an
 * Origin that is not an address at all comes from no browser: both are refused (403).
 */
export const sameOriginForms = (): MiddlewareHandler<Env> =>
  async function sameOriginForms(c, next) {
    if (!SAFE.has(c.req.method) && !c.req.path.startsWith('/api/') && !CROSS_SITE_POSTS.has(c.req.path)) {
      const origin = c.req.header('origin')
      const host = c.req.header('host')
      const originHost = origin === undefined ? undefined : hostOf(origin)
      if (originHost === null) throw new Forbidden(FORM_ORIGIN_MESSAGE)
      const crossSite = c.req.header('sec-fetch-site') === 'cross-site' || (originHost !== undefined && host !== undefined && originHost !== host)
      if (crossSite) throw new BadRequest(CSRF_MESSAGE)
    }
    await next()
  }

/** The host (and port) an Origin header names; null for `null` and for anything that is not an address. */
function hostOf(origin: string): string | null {
  if (origin === 'null' || !URL.canParse(origin)) return null
  return new URL(origin).host
}
