import { Hono, type Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import { clientIp, signedIn, idParam } from '../../src/http/index.ts'
import type { Env } from '../../src/http/index.ts'
import { endAllSessions, endSession } from '../../src/users/index.ts'

const userId = (c: Context<Env>) => idParam(c.req.param('id'), NotFound)

/** The profile's session forms: end one session, or (admins) all of a user's; then back to the profile. */
export default new Hono<Env>()
  .post('/users/:id{[0-9]+}/sessions/:sid{[0-9]+}/end', async (c) => {
    const { principal } = signedIn(c)
    const id = userId(c)
    await endSession(c.get('deps'), principal, id, idParam(c.req.param('sid'), NotFound), { ip: clientIp(c) })
    return c.redirect(principal.id === id ? '/users/me' : `/users/${id}`, 303)
  })
  .post('/users/:id{[0-9]+}/sessions/end', async (c) => {
    const { principal } = signedIn(c)
    const id = userId(c)
    await endAllSessions(c.get('deps'), principal, id, { ip: clientIp(c) })
    return c.redirect(principal.id === id ? '/login' : `/users/${id}`, 303)
  })
