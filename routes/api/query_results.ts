import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import { outcomeResponse, runAdhoc } from '../../src/executions/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, adhocRunInput, parametersFromUrl, jsonBody, cachedResult, IMMUTABLE_SECONDS } from '../../src/http/index.ts'
import { parseResultFile, readableResult, resultResponse } from '../../src/results/index.ts'

/** Ad-hoc execution (the editor's Execute) and results by id (spec 1 §7). */
export default new Hono<Env>()
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    const deps = c.get('deps')
    return outcomeResponse(deps, await runAdhoc(deps, principal, adhocRunInput(await jsonBody(c.req), parametersFromUrl(c.req.query()))))
  })
  .post('/:id{[0-9]+}', requireCaller, async (c) => {
    const { principal } = c.var
    const deps = c.get('deps')
    return outcomeResponse(deps, await runAdhoc(deps, principal, adhocRunInput(await jsonBody(c.req), parametersFromUrl(c.req.query()))))
  })
  .get('/:file', requireCaller, async (c) => {
    const { principal, org } = c.var
    const file = parseResultFile(c.req.param('file'))
    if (!file) throw new NotFound()
    const deps = c.get('deps')
    const result = await readableResult(deps, principal, file.id)
    return cachedResult(c, result, [file.format], IMMUTABLE_SECONDS,
      () => resultResponse(deps, result, file.format, { name: null, settings: org.settings, immutable: true, attachment: true }))
  })
