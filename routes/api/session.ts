import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'
import { sessionJson } from '../../src/session/index.ts'

/** The signed-in user, the client configuration and the home page's messages (spec 1 §3). */
export default new Hono<Env>().get('/', requireCaller, (c) => {
  const { principal, org } = c.var
  return c.body(sessionJson(c.get('deps').config, principal, org), 200, { 'Content-Type': 'application/json' })
})
