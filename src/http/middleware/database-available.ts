import type { MiddlewareHandler } from 'hono'
import { ServiceUnavailable } from '../../errors.ts'
import type { Env } from '../env.ts'

/**
 * While Sightline's database is known to be unreachable, requests are answered 503 (with Retry-After) at once,
 * rather than each waiting for a connection of its own; a request that meets a connection error tells the health
 * monitor, which then probes until the database is back (src/db/health.ts).
 *
 * Liveness (`/ping`, routes/ping.ts) still answers "PONG." meanwhile: the process itself is fine, and a liveness probe
 * that failed along with the database would have an orchestrator restart healthy processes in a loop. Readiness
 * (`/ready`) is the check that fails, so load balancers send traffic elsewhere until the database is back.
 */
export const databaseAvailable = (): MiddlewareHandler<Env> =>
  async function databaseAvailable(c, next) {
    const health = c.get('deps').database
    if (!health.available) {
      if (c.req.path === '/ping') return c.text('PONG.')
      throw new ServiceUnavailable()
    }
    await next()
    if (c.error) health.report(c.error)
  }
