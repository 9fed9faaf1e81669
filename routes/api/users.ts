import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { idParam, jsonBody } from '../../src/http/validate.ts'
import { getUser, listUsersPage, parseUserListQuery, regenerateUserApiKey, updateUser } from '../../src/users/service.ts'

/** Users and profiles (spec 3 §7 "Users", reference §1.6). Answers that may carry an API key are never stored by caches. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await listUsersPage(c.get('deps'), principal, parseUserListQuery(c.req.query())))
  })
  .get('/:id', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await getUser(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
  .post('/:id', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await updateUser(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req)))
  })
  .post('/:id/regenerate_api_key', async (c) => {
    const { principal } = apiCaller(c)
    const apiKey = await regenerateUserApiKey(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    c.header('Cache-Control', 'no-store')
    return c.json({ api_key: apiKey })
  })
