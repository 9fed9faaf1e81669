import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import { outcomeResponse } from '../../src/executions/respond.ts'
import { runAdhoc } from '../../src/executions/requests.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { adhocRunInput, parametersFromUrl } from '../../src/http/bodies/run.ts'
import { jsonBody } from '../../src/http/validate.ts'
import { cachedResult, IMMUTABLE_SECONDS } from '../../src/http/result-caching.ts'
import { parseResultFile, readableResult, resultResponse } from '../../src/results/service.ts'

/** Ad-hoc execution (the editor's Execute) and results by id (spec 1 §7). */
export default new Hono<Env>()
  .post('/', async (c) => {
    const { principal } = apiCaller(c)
    const deps = c.get('deps')
    return outcomeResponse(deps, await runAdhoc(deps, principal, adhocRunInput(await jsonBody(c.req), parametersFromUrl(c.req.query()))))
  })
  .post('/:id{[0-9]+}', async (c) => {
    const { principal } = apiCaller(c)
    const deps = c.get('deps')
    return outcomeResponse(deps, await runAdhoc(deps, principal, adhocRunInput(await jsonBody(c.req), parametersFromUrl(c.req.query()))))
  })
  .get('/:file', async (c) => {
    const { principal, org } = apiCaller(c)
    const file = parseResultFile(c.req.param('file'))
    if (!file) throw new NotFound()
    const deps = c.get('deps')
    const result = await readableResult(deps, principal, file.id)
    return cachedResult(c, result, [file.format], IMMUTABLE_SECONDS,
      () => resultResponse(deps, result, file.format, { name: null, settings: org.settings, immutable: true, attachment: true }))
  })
