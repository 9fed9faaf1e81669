import { Hono } from 'hono'
import { recordBrowserEvents } from '../../src/events/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, jsonBody, clientIp } from '../../src/http/index.ts'

/** Usage events from the browser, batched (spec 1 §7), into the audit log. */
export default new Hono<Env>().post('/', requireCaller, async (c) => {
  const { principal } = c.var
  const recorded = await recordBrowserEvents(c.get('deps').sql, principal, await jsonBody(c.req), {
    userAgent: c.req.header('user-agent'), ip: clientIp(c),
  })
  return c.json({ recorded })
})
