import { Hono } from 'hono'
import type { Env } from '../../../../src/http/index.ts'
import { NotFound } from '../../../../src/errors.ts'
import { clientIp, signedIn, idParam } from '../../../../src/http/index.ts'
import { endAllSessions } from '../../../../src/users/index.ts'

/** The profile's form that ends every session of a user (one's own, or an admin's for anyone); then back to the profile. */
export default new Hono<Env>().post('/', async (c) => {
  const { principal } = signedIn(c)
  const id = idParam(c.req.param('id'), NotFound)
  await endAllSessions(c.get('deps'), principal, id, { ip: clientIp(c) })
  return c.redirect(principal.id === id ? '/login' : `/users/${id}`, 303)
})
