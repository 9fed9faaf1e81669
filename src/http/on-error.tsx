import type { Context } from 'hono'
import type { JSX } from 'react'
import { HTTPException } from 'hono/http-exception'
import { isConnectionError } from '../db/index.ts'
import { HttpError, PayloadTooLarge, Redirect, ServiceUnavailable, TooManyRequests } from '../errors.ts'
import { log } from '../log.ts'
import type { Env } from './env.ts'
import { renderPage } from './render.tsx'

// PostgreSQL errors a user can cause with bad input; everything else is our fault (500).
const PG_CLIENT_ERRORS: Record<string, [number, string]> = {
  '22P02': [400, 'Invalid value.'],
  '22003': [400, 'A number is out of range.'],
  '22001': [400, 'A value is too long.'],
  '23505': [409, 'This already exists.'],
  '23503': [400, 'A referenced object does not exist.'],
}

function classify(error: unknown): { status: number; message: string; extra?: Record<string, unknown> } {
  if (error instanceof HttpError) return { status: error.status, message: error.message, extra: error.extra }
  if (error instanceof HTTPException) return { status: error.status, message: error.message || 'Bad request.' }
  const code = (error as { code?: string })?.code
  if (code && PG_CLIENT_ERRORS[code]) {
    const [status, message] = PG_CLIENT_ERRORS[code]
    return { status, message }
  }
  return { status: 500, message: 'Internal server error.' }
}

export const wantsJson = <E extends Env>(c: Context<E>) => {
  if (c.req.path.startsWith('/api/') || c.req.path === '/status.json') return true
  const accept = c.req.header('accept') ?? ''
  return accept.includes('application/json') && !accept.includes('text/html')
}

/** The page shown for a failed page request, by status: the web shell's (src/ui/ErrorPage.tsx), handed in by createApp. */
export type ErrorPageFor = (status: number) => JSX.Element

/**
 * THE mapping from errors to responses: JSON `{message}` for the API, the error page for pages. The page comes from
 * the caller, so this plumbing never imports the UI drawn above it.
 */
export function errorHandlers(errorPage: ErrorPageFor) {
  function onError(error: Error, c: Context<Env>): Response {
    if (error instanceof Redirect) return c.redirect(error.location)
    // Sightline's own database out of reach is an outage to wait out (503), not a fault of ours (500)
    if (isConnectionError(error)) error = new ServiceUnavailable()
    if (error instanceof ServiceUnavailable) c.header('Retry-After', String(error.retryAfterSeconds))
    if (error instanceof TooManyRequests && error.retryAfterSeconds) c.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))))
    // a body refused unread is still on the socket: the connection cannot carry the client's next request
    if (error instanceof PayloadTooLarge) c.header('Connection', 'close')
    const { status, message, extra } = classify(error)
    // an outage is logged once, where it is noticed (src/db/health.ts), not once per request refused meanwhile
    if (status >= 500 && status !== 503) log.error('request failed', { requestId: c.get('requestId'), path: c.req.path, error: error.stack ?? String(error) })
    if (wantsJson(c)) return c.json({ message, ...extra }, status as 400)
    if (status === 401) {
      const next = c.req.path + (new URL(c.req.url).search || '')
      return c.redirect(`/login?next=${encodeURIComponent(next)}`)
    }
    return renderPage(c, errorPage(status), { status, title: status === 404 ? 'Not found' : 'Error', bodyClass: 'bare' })
  }

  function notFound(c: Context<Env>): Response {
    if (wantsJson(c)) return c.json({ message: 'Not found.' }, 404)
    return renderPage(c, errorPage(404), { status: 404, title: 'Not found', bodyClass: 'bare' })
  }

  return { onError, notFound }
}
