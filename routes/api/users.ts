import { Hono, type Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody, clientIp } from '../../src/http/index.ts'
import { createUser, deleteUser, disableUser, enableUser, reinviteUser, resetPasswordLink, endAllSessions, endSession, listSessions, getUser, listUsersPage, parseUserListQuery, regenerateUserApiKey, updateUser } from '../../src/users/index.ts'

const userId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)
const sessionId = <E extends Env>(c: Context<E>) => idParam(c.req.param('sid'), NotFound)

/** Users and profiles (spec 3 §7 "Users", reference §1.6). Answers that may carry an API key or a link are never stored by caches. */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await listUsersPage(c.get('deps'), principal, parseUserListQuery(c.req.query())))
  })
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await createUser(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await getUser(c.get('deps'), principal, userId(c)))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await updateUser(c.get('deps'), principal, userId(c), await jsonBody(c.req)))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteUser(c.get('deps'), principal, userId(c))
    return c.body(null, 204)
  })
  .delete('/:id/disable', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await enableUser(c.get('deps'), principal, userId(c)))
  })
  .post('/:id/invite', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await reinviteUser(c.get('deps'), principal, userId(c)))
  })
  .post('/:id/reset_password', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await resetPasswordLink(c.get('deps'), principal, userId(c)))
  })
  .post('/:id/regenerate_api_key', requireCaller, async (c) => {
    const { principal } = c.var
    const apiKey = await regenerateUserApiKey(c.get('deps'), principal, userId(c))
    c.header('Cache-Control', 'no-store')
    return c.json({ api_key: apiKey })
  })
  .post('/:id/disable', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await disableUser(c.get('deps'), principal, userId(c)))
  })
  .get('/:id/sessions', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await listSessions(c.get('deps'), principal, userId(c)))
  })
  .delete('/:id/sessions', requireCaller, async (c) => {
    const { principal } = c.var
    const ended = await endAllSessions(c.get('deps'), principal, userId(c), { ip: clientIp(c) })
    return c.json({ ended })
  })
  .delete('/:id/sessions/:sid', requireCaller, async (c) => {
    const { principal } = c.var
    await endSession(c.get('deps'), principal, userId(c), sessionId(c), { ip: clientIp(c) })
    return c.body(null, 204)
  })
