import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { clientConfig } from '../../src/session/index.ts'
import { DEFAULT_SETTINGS } from '../../src/settings/index.ts'

/** Public configuration for visitors without a session (spec 1 §4). */
export default new Hono<Env>().get('/', (c) => {
  const org = c.get('org')
  return c.json({ org_slug: org?.slug ?? 'default', client_config: clientConfig(c.get('deps').config, org?.settings ?? DEFAULT_SETTINGS) })
})
