import { Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { routes } from '../routes/manifest.gen.ts'
import type { Deps } from './deps.ts'
import { PayloadTooLarge } from './errors.ts'
import type { Env } from './http/index.ts'
import { authenticate, compressForBrowsers, csrf, sameOriginForms, databaseAvailable, requestId, requestOrigin, securityHeaders, serveStatic, isUploadPath, errorHandlers, signInFromProxy } from './http/index.ts'
import { ErrorPage } from './ui/index.ts'

/**
 * The web application: middleware in order, then every route of routes/manifest.gen.ts. One fetch-style app, so the
 * same code runs under Node (@hono/node-server), Deno, and in tests through `app.request()` with no port.
 */
export function createApp(deps: Deps): Hono<Env> {
  const app = new Hono<Env>()
  app.use('*', async function provideDeps(c, next) {
    c.set('deps', deps)
    await next()
  })
  app.use('*', requestId())
  app.use('*', securityHeaders())
  app.use('*', limitBodies(deps.config.maxBodyBytes))
  app.get('/static/*', serveStatic(deps.assets))
  app.get('/favicon.ico', (c) => c.redirect('/static/favicon.svg', 301))
  app.use('*', databaseAvailable())
  app.use('*', compressForBrowsers())
  app.use('*', requestOrigin())
  app.use('*', authenticate())
  app.use('*', signInFromProxy())
  app.use('*', csrf())
  app.use('*', sameOriginForms())
  for (const [path, route] of routes) app.route(path, route)
  // the error page is the web shell's: handed to the error mapping, which sits below the UI
  const { onError, notFound } = errorHandlers((status) => ErrorPage({ status }))
  app.onError(onError)
  app.notFound(notFound)
  return app
}

/**
 * Every request body is at most SIGHTLINE_MAX_BODY_BYTES: a declared larger one is refused before it is read, an
 * undeclared (chunked) one as soon as it grows past the limit. 413, as JSON for the API and as a page for forms.
 */
function limitBodies(maxBytes: number): MiddlewareHandler<Env> {
  const message = `The request body is too large (at most ${maxBytes.toLocaleString('en-US')} bytes).`
  const limit = bodyLimit({ maxSize: maxBytes, onError: () => { throw new PayloadTooLarge(message) } })
  // GET and HEAD carry no body; asking for one would make Node's adapter build a full Request for every read.
  // Uploads have a larger limit of their own, checked after their rights (src/http/uploads.ts).
  return (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' || isUploadPath(c.req.path) ? next() : limit(c, next))
}
