import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { start } from '../_provider-sign-in.tsx'

/** Sign-in with Google at the established tool's address: sends the browser to Google; it comes back to /oauth/google_callback. */
export default new Hono<Env>()
  .get('/', (c) => start(c, 'google'))
