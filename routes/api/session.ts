import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { apiCaller } from '../../src/http/index.ts'
import { sessionJson } from '../../src/session/index.ts'

/** The signed-in user, the client configuration and the home page's messages (spec 1 §3). */
export default new Hono<Env>().get('/', (c) => {
  const { principal, org } = apiCaller(c)
  return c.body(sessionJson(c.get('deps').config, principal, org), 200, { 'Content-Type': 'application/json' })
})
