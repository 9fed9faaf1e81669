import { Hono, type Context } from 'hono'
import { NotFound } from '../../../src/errors.ts'
import { findFinishedJob, outcomeJobResponse, outcomeResponse, executionJobJson } from '../../../src/executions/index.ts'
import { getQueryExecution } from '../../../src/workers/index.ts'
import type { Env } from '../../../src/http/index.ts'
import { parametersFromUrl, savedRunInput, idParam, jsonBody, cachedResult, IMMUTABLE_SECONDS } from '../../../src/http/index.ts'
import { refreshSeconds, dropdownInContext, dropdownOf, latestResultOf, queryResultOf, refreshSaved, runSaved, savedCaller } from '../../../src/queries/index.ts'
import { parseResultFile, resultResponse, type ResultFormat } from '../../../src/results/index.ts'
import { DEFAULT_SETTINGS } from '../../../src/settings/index.ts'

const caller = (c: Context<Env>) => savedCaller(c.get('principal'), c.get('objectApiKey'))

/** Running a saved query, its results and dropdown values (spec 1 §7), for users and for the query's own API key. */
export default new Hono<Env>()
  .post('/:id{[0-9]+}/results', async (c) => {
    const deps = c.get('deps')
    const body = c.req.header('content-length') === '0' ? {} : await jsonBody(c.req)
    const who = caller(c)
    return outcomeResponse(deps, await runSaved(deps, who, idParam(c.req.param('id'), NotFound), savedRunInput(body)), 'queryKey' in who)
  })
  .get('/:id{[0-9]+}/:file{results[.a-z]*}', (c) => {
    const format = /^results(?:\.(json|csv|tsv|xlsx))?$/.exec(c.req.param('file'))?.[1] ?? (c.req.param('file') === 'results' ? 'json' : undefined)
    if (!format) throw new NotFound()
    return latest(c, format as ResultFormat)
  })
  .get('/:id{[0-9]+}/results/:file', async (c) => {
    const file = parseResultFile(c.req.param('file'))
    if (!file) throw new NotFound()
    const deps = c.get('deps')
    const who = caller(c)
    const { result, name } = await queryResultOf(deps, who, idParam(c.req.param('id'), NotFound), file.id, file.format)
    const settings = c.get('org')?.settings ?? DEFAULT_SETTINGS
    const shared = 'queryKey' in who
    return cachedResult(c, result, [file.format, name, shared], IMMUTABLE_SECONDS,
      () => resultResponse(deps, result, file.format, { name, settings, immutable: true, attachment: true, shared }))
  })
  // the established tool's older run call: always anew, values from the address, answered with the job to poll
  .post('/:id{[0-9]+}/refresh', async (c) => {
    const deps = c.get('deps')
    return outcomeJobResponse(deps, await refreshSaved(deps, caller(c), idParam(c.req.param('id'), NotFound), parametersFromUrl(c.req.query())))
  })
  .get('/:id{[0-9]+}/jobs/:jobId', async (c) => {
    const jobId = c.req.param('jobId')
    if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw new NotFound('Job not found.')
    const org = c.get('org')
    const finished = org && await findFinishedJob(c.get('deps'), org.id, jobId)
    if (finished) return c.json({ job: finished })
    const execution = await getQueryExecution(c.get('deps'), idParam(c.req.param('id'), NotFound), jobId)
    if (!execution) throw new NotFound('Job not found.')
    return c.json({ job: executionJobJson(execution) })
  })
  .get('/:id{[0-9]+}/dropdown', async (c) =>
    c.json(await dropdownOf(c.get('deps'), caller(c), idParam(c.req.param('id'), NotFound))))
  .get('/:id{[0-9]+}/dropdowns/:dropdownId{[0-9]+}', async (c) =>
    c.json(await dropdownInContext(c.get('deps'), caller(c), idParam(c.req.param('id'), NotFound), idParam(c.req.param('dropdownId'), NotFound))))

async function latest(c: Context<Env>, format: ResultFormat) {
  const deps = c.get('deps')
  const who = caller(c)
  const { result, name, query } = await latestResultOf(deps, who, idParam(c.req.param('id'), NotFound), format)
  const settings = c.get('org')?.settings ?? DEFAULT_SETTINGS
  const shared = 'queryKey' in who
  // the latest result is the query's until its next refresh: kept for its refresh interval, then revalidated
  return cachedResult(c, result, [format, query.id, query.version, shared], refreshSeconds(query),
    () => resultResponse(deps, result, format, { name, settings, immutable: false, attachment: true, shared }))
}
