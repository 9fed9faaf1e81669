import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, jsonBody } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { saveSettings, settingsJson } from '../../src/orgs/index.ts'

/** Organization settings (spec 3 §3), admins only. */
export default new Hono<Env>()
  .get('/organization', requireCaller, (c) => {
    const { principal, org } = c.var
    requireAdmin(principal)
    return c.json(settingsJson(org.settings))
  })
  .post('/organization', requireCaller, async (c) => {
    const { principal, org } = c.var
    requireAdmin(principal)
    const settings = await saveSettings(c.get('deps'), principal, org, await jsonBody(c.req))
    return c.json(settingsJson(settings))
  })
