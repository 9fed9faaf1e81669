import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../env.ts'

/** The policy for every page; a page with islands adds the nonce of its one inline boot script. */
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
 * Pages any site may frame (embeds, as the established tool's `csp_allows_embeding`): the page policy with
 * `frame-ancestors *` and no X-Frame-Options, set on the page's own response as help sets its own. The response also
 * carries the headers the middleware would add (`nosniff`), so the middleware keeps its policy as given: a 304 too,
 * whose headers a browser merges into the page it kept.
 */
export function allowFraming(headers: Headers, nonce?: string): void {
  headers.set('Content-Security-Policy', contentSecurityPolicy(nonce).replace("frame-ancestors 'none'", 'frame-ancestors *'))
  headers.delete('X-Frame-Options')
  headers.set('X-Content-Type-Options', 'nosniff')
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
}

/**
 * Anything that is not a page (JSON, streamed results, downloads, assets) is never a document to run: opened on its
 * own (an SVG, a result's JSON, a CSV a browser decides to show) it may load nothing and runs in a sandbox, with no
 * script and an origin of its own, so a value in a result can never act as Sightline.
 */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"

/** The resource policy of answers public pages may be framed with (a shared dashboard's JSON): any site may frame it. */
export const FRAMEABLE_RESOURCE_CSP = "default-src 'none'; frame-ancestors *; sandbox"

const COMMON: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
]

/**
 * Browser hardening on every response. Headers are set before the handler runs, so answers Hono builds (c.json,
 * c.html, c.body) carry them as made (headers added after a response exists make Node's adapter rebuild it). Some
 * answers are Responses built elsewhere (streamed results and downloads, a run's answer), which Hono passes on
 * without those prepared headers: they get them afterwards, in place. Non-page answers get the resource policy;
 * a page meant for framing (help) replaces the framing headers on its own response, and keeps them.
 */
export const securityHeaders = (): MiddlewareHandler<Env> =>
  async function securityHeaders(c, next) {
    c.header('Content-Security-Policy', /^\/(api|static)\//.test(c.req.path) ? RESOURCE_CSP : CSP)
    for (const [name, value] of COMMON) c.header(name, value)
    await next()
    completeHeaders(c)
  }

function completeHeaders(c: Context<Env>) {
  let headers = c.res.headers
  if (headers.get('X-Content-Type-Options') === 'nosniff' && policyFits(headers)) return
  try {
    apply(headers)
  } catch {
    // a Response with immutable headers (Response.redirect, a fetched answer): copy it, then set them
    c.res = new Response(c.res.body, c.res)
    headers = c.res.headers
    apply(headers)
  }
}

const isPage = (headers: Headers) => /^text\/html\b/i.test(headers.get('Content-Type') ?? '')

/** A page keeps the policy it was given (a nonce, or help's framing); anything else has the resource policy. */
const policyFits = (headers: Headers) =>
  isPage(headers) ? headers.has('Content-Security-Policy') : isResourcePolicy(headers.get('Content-Security-Policy'))

const isResourcePolicy = (policy: string | null) => policy === RESOURCE_CSP || policy === FRAMEABLE_RESOURCE_CSP

function apply(headers: Headers) {
  for (const [name, value] of COMMON) if (!headers.has(name)) headers.set(name, value)
  if (!isPage(headers)) {
    if (!isResourcePolicy(headers.get('Content-Security-Policy'))) headers.set('Content-Security-Policy', RESOURCE_CSP)
  }
  else if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', CSP)
}
