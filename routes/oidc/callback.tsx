import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { callback } from '../_provider-sign-in.tsx'

/** Where an OpenID Connect provider sends the browser back, signed in or refused. */
export default new Hono<Env>()
  .get('/', (c) => callback(c, 'oidc'))
