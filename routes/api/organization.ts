import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'
import { objectCounters } from '../../src/monitoring/index.ts'

export default new Hono<Env>().get('/status', requireCaller, async (c) => {
  const { principal } = c.var
  return c.json({ object_counters: await objectCounters(c.get('deps'), principal) })
})
