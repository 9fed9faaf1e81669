import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { idParam } from '../../src/http/validate.ts'
import { getUser, regenerateUserApiKey } from '../../src/users/service.ts'

export default new Hono<Env>()
  .get('/:id', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(await getUser(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
  .post('/:id/regenerate_api_key', async (c) => {
    const { principal } = apiCaller(c)
    const apiKey = await regenerateUserApiKey(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.json({ api_key: apiKey })
  })
