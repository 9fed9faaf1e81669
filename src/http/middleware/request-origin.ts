import type { MiddlewareHandler } from 'hono'
import { withRequestOrigin } from '../../events/index.ts'
import { clientIp } from '../client-ip.ts'
import type { Env } from '../env.ts'

/**
 * Every audit event a request records says from which address (the same one the sign-in limits count) and browser
 * it came, without each service having to be handed them.
 */
export const requestOrigin = (): MiddlewareHandler<Env> =>
  function requestOrigin(c, next) {
    return withRequestOrigin({ ip: clientIp(c), userAgent: c.req.header('user-agent')?.slice(0, 500) }, next)
  }
