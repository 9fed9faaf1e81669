import { Hono } from 'hono'
import { ServiceUnavailable } from '../src/errors.ts'
import type { Env } from '../src/http/index.ts'

/**
 * Readiness, for load balancers and orchestrators: 200 "READY." while this process can serve (its database answers a
 * probe), 503 with Retry-After while it cannot. `/ping` stays the liveness answer, "PONG." whatever the database does.
 */
export default new Hono<Env>().get('/', async (c) => {
  c.header('Cache-Control', 'no-store')
  if (!(await c.get('deps').database.check())) throw new ServiceUnavailable()
  return c.text('READY.')
})
