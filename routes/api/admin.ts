import { Hono, type Context } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'
import { outdatedQueries, rqStatus } from '../../src/monitoring/index.ts'

/** Live figures: no cache may keep them. */
function liveJson<E extends Env>(c: Context<E>, body: unknown) {
  c.header('Cache-Control', 'no-store')
  return c.json(body)
}

/**
 * The admin monitoring calls (spec 3 §7; reference §5.5, §5.6), super admins only: 401 for anonymous callers, 403 for
 * everyone else.
 */
export default new Hono<Env>()
  .get('/queries/outdated', requireCaller, async (c) => liveJson(c, await outdatedQueries(c.get('deps'), c.var.principal)))
  .get('/queries/rq_status', requireCaller, async (c) => liveJson(c, await rqStatus(c.get('deps'), c.var.principal)))
