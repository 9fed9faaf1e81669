import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { jobJson } from '../../src/jobs/serialize.ts'
import { getJob } from '../../src/jobs/service.ts'

/** Job status, polled by the browser (spec 1 §4). */
export default new Hono<Env>().get('/:id', async (c) => {
  const { principal } = apiCaller(c)
  const id = c.req.param('id')
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFound()
  return c.json({ job: jobJson(await getJob(c.get('deps'), principal, id)) })
})
