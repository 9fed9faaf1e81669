import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { start } from '../_provider-sign-in.tsx'

/** Sign-in through any OpenID Connect provider: sends the browser to it; it comes back to /oidc/callback. */
export default new Hono<Env>()
  .get('/', (c) => start(c, 'oidc'))
