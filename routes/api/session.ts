import { Hono } from 'hono'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { clientConfig, sessionMessages } from '../../src/session/client-config.ts'

/** The signed-in user, the client configuration and the home page's messages (spec 1 §3). */
export default new Hono<Env>().get('/', (c) => {
  const { principal, org } = apiCaller(c)
  const config = c.get('deps').config
  return c.json({
    user: {
      id: principal.id,
      name: principal.name,
      email: principal.email,
      profile_image_url: principal.profileImageUrl,
      groups: principal.groupIds,
      permissions: principal.permissions,
    },
    messages: sessionMessages(config, principal),
    org_slug: org.slug,
    client_config: clientConfig(config, org.settings, principal),
  })
})
