import { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'

/** Health check, and the call the browser makes after a CSRF failure to get a fresh csrf_token cookie. */
export default new Hono<Env>().get('/', (c) => c.text('PONG.'))
