import { Hono } from 'hono'
import type { Env } from '../../../../../src/http/index.ts'
import { NotFound } from '../../../../../src/errors.ts'
import { clientIp, signedIn, idParam } from '../../../../../src/http/index.ts'
import { endSession } from '../../../../../src/users/index.ts'

/** The profile's form that ends one session; then back to the profile. */
export default new Hono<Env>().post('/', async (c) => {
  const { principal } = signedIn(c)
  const id = idParam(c.req.param('id'), NotFound)
  await endSession(c.get('deps'), principal, id, idParam(c.req.param('sid'), NotFound), { ip: clientIp(c) })
  return c.redirect(principal.id === id ? '/users/me' : `/users/${id}`, 303)
})
