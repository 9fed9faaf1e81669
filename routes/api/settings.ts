import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { apiCaller, jsonBody } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { saveSettings, settingsJson } from '../../src/orgs/index.ts'

/** Organization settings (spec 3 §3), admins only. */
export default new Hono<Env>()
  .get('/organization', (c) => {
    const { principal, org } = apiCaller(c)
    requireAdmin(principal)
    return c.json(settingsJson(org.settings))
  })
  .post('/organization', async (c) => {
    const { principal, org } = apiCaller(c)
    requireAdmin(principal)
    const settings = await saveSettings(c.get('deps'), principal, org, await jsonBody(c.req))
    return c.json(settingsJson(settings))
  })
