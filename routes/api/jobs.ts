import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import { findFinishedJob, executionJobJson, cancelExecution } from '../../src/executions/index.ts'
import { pollExecution } from '../../src/workers/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'
import { jobJson, getJob } from '../../src/jobs/index.ts'

const jobId = (id: string) => {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFound('Job not found.')
  return id
}

/**
 * Job status, polled by the browser (spec 1 §4): the finished job of a run answered at once, executions, then other
 * background work (schema refreshes).
 */
export default new Hono<Env>()
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const id = jobId(c.req.param('id'))
    const deps = c.get('deps')
    const finished = await findFinishedJob(deps, principal.orgId, id)
    if (finished) return c.json({ job: finished })
    const execution = await pollExecution(deps, principal.orgId, id)
    if (execution) return c.json({ job: executionJobJson(execution) })
    return c.json({ job: jobJson(await getJob(deps, principal, id)) })
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const id = jobId(c.req.param('id'))
    const deps = c.get('deps')
    return c.json({ job: executionJobJson(await cancelExecution(deps, principal, id)) })
  })
