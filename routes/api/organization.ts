import { Hono } from 'hono'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { objectCounters } from '../../src/monitoring/object-counters.ts'

export default new Hono<Env>().get('/status', async (c) => {
  const { principal } = apiCaller(c)
  return c.json({ object_counters: await objectCounters(c.get('deps'), principal) })
})
