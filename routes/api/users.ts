import { Hono, type Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { apiCaller, idParam, jsonBody, clientIp } from '../../src/http/index.ts'
import { createUser, deleteUser, disableUser, enableUser, reinviteUser, resetPasswordLink, endAllSessions, endSession, listSessions, getUser, listUsersPage, parseUserListQuery, regenerateUserApiKey, updateUser } from '../../src/users/index.ts'

const userId = (c: Context<Env>) => idParam(c.req.param('id'), NotFound)
const sessionId = (c: Context<Env>) => idParam(c.req.param('sid'), NotFound)

/** Users and profiles (spec 3 §7 "Users", reference §1.6). Answers that may carry an API key or a link are never stored by caches. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await listUsersPage(c.get('deps'), principal, parseUserListQuery(c.req.query())))
  })
  .post('/', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await createUser(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .get('/:id', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await getUser(c.get('deps'), principal, userId(c)))
  })
  .post('/:id', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await updateUser(c.get('deps'), principal, userId(c), await jsonBody(c.req)))
  })
  .delete('/:id', async (c) => {
    const { principal } = apiCaller(c)
    await deleteUser(c.get('deps'), principal, userId(c))
    return c.body(null, 204)
  })
  .delete('/:id/disable', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await enableUser(c.get('deps'), principal, userId(c)))
  })
  .post('/:id/invite', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await reinviteUser(c.get('deps'), principal, userId(c)))
  })
  .post('/:id/reset_password', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await resetPasswordLink(c.get('deps'), principal, userId(c)))
  })
  .post('/:id/regenerate_api_key', async (c) => {
    const { principal } = apiCaller(c)
    const apiKey = await regenerateUserApiKey(c.get('deps'), principal, userId(c))
    c.header('Cache-Control', 'no-store')
    return c.json({ api_key: apiKey })
  })
  .post('/:id/disable', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await disableUser(c.get('deps'), principal, userId(c)))
  })
  .get('/:id/sessions', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await listSessions(c.get('deps'), principal, userId(c)))
  })
  .delete('/:id/sessions', async (c) => {
    const { principal } = apiCaller(c)
    const ended = await endAllSessions(c.get('deps'), principal, userId(c), { ip: clientIp(c) })
    return c.json({ ended })
  })
  .delete('/:id/sessions/:sid', async (c) => {
    const { principal } = apiCaller(c)
    await endSession(c.get('deps'), principal, userId(c), sessionId(c), { ip: clientIp(c) })
    return c.body(null, 204)
  })
