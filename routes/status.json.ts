import { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'
import { requireCaller } from '../src/http/index.ts'
import { systemStatus } from '../src/monitoring/index.ts'

/**
 * The System Status page's data (reference §5.6), super admins only. Errors answer JSON (401 for anonymous callers
 * rather than the established tool's redirect): on-error treats this path as an API call.
 */
export default new Hono<Env>().get('/', requireCaller, async (c) => {
  const status = await systemStatus(c.get('deps'), c.var.principal)
  c.header('Cache-Control', 'no-store')
  return c.json(status)
})
