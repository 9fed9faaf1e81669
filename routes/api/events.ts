import { Hono } from 'hono'
import { recordBrowserEvents } from '../../src/events/service.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { jsonBody } from '../../src/http/validate.ts'
import { clientIp } from '../../src/http/client-ip.ts'

/** Usage events from the browser, batched (spec 1 §7), into the audit log. */
export default new Hono<Env>().post('/', async (c) => {
  const { principal } = apiCaller(c)
  const recorded = await recordBrowserEvents(c.get('deps').sql, principal, await jsonBody(c.req), {
    userAgent: c.req.header('user-agent'), ip: clientIp(c),
  })
  return c.json({ recorded })
})
