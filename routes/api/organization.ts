import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { apiCaller } from '../../src/http/index.ts'
import { objectCounters } from '../../src/monitoring/index.ts'

export default new Hono<Env>().get('/status', async (c) => {
  const { principal } = apiCaller(c)
  return c.json({ object_counters: await objectCounters(c.get('deps'), principal) })
})
