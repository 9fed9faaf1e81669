import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { callback } from '../_provider-sign-in.tsx'

/** Where Google sends the browser back (the established tool's address), signed in or refused. */
export default new Hono<Env>()
  .get('/', (c) => callback(c, 'google'))
