import type { MiddlewareHandler } from 'hono'
import { ServiceUnavailable } from '../../errors.ts'
import type { Env } from '../env.ts'

/**
 * While Sightline's database is known to be unreachable, requests are answered 503 (with Retry-After) at once,
 * rather than each waiting for a connection of its own; a request that meets a connection error tells the health
 * monitor, which then probes until the database is back (src/db/health.ts).
 *
 * A hung database raises no error: a request still unanswered after `slowRequestMs` has it probed, and once the probe
 * marks it down, the requests still waiting are answered 503 too, instead of being held for as long as the hang
 * lasts. Their statements may still run when the database wakes up, as after any timeout; the client was told to try
 * again, not that nothing happened.
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
    const slow = setTimeout(() => void health.check(), health.slowRequestMs)
    let leave = () => {}
    const down = new Promise<false>((resolve) => (leave = health.onDown(() => resolve(false))))
    try {
      const handled = next().then(() => true)
      if (!(await Promise.race([handled, down]))) {
        handled.catch(() => {}) // it ends when the database answers again, or its connection breaks; nobody waits for it
        throw new ServiceUnavailable()
      }
    } finally {
      clearTimeout(slow)
      leave()
    }
    if (c.error) health.report(c.error)
  }
