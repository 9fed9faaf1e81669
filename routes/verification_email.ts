import { Hono } from 'hono'
import { BadRequest } from '../src/errors.ts'
import type { Env } from '../src/http/env.ts'
import { apiCaller } from '../src/http/guards.ts'

/**
 * Resend the email-verification mail (spec 1 §7). Sightline sends no mail until a mail server is configured,
 * which arrives with alert destinations; until then the answer says so.
 */
export default new Hono<Env>().post('/verification_email/', (c) => {
  apiCaller(c)
  throw new BadRequest('The mail server is not configured.')
})
