import type { MiddlewareHandler } from 'hono'
import type { Env } from '../env.ts'

/** Every request gets an id, echoed in X-Request-Id and in logs, so a user's report can be traced. */
export const requestId = (): MiddlewareHandler<Env> =>
  async function requestId(c, next) {
    const given = c.req.header('x-request-id')
    const id = given && given.length <= 200 && /^[\w\-=.]+$/.test(given) ? given : crypto.randomUUID()
    c.set('requestId', id)
    c.header('X-Request-Id', id)
    await next()
  }
