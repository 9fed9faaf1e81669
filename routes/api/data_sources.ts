import { Hono } from 'hono'
import { dataSourceJson, dataSourceTypeJson, createDataSource, deleteDataSource, getAccessible, listDataSources, saveDataSource, schemaOrJob, testDataSource } from '../../src/data-sources/index.ts'
import { NotFound } from '../../src/errors.ts'
import { resultsSchemaFor } from '../../src/queries/index.ts'
import type { Env } from '../../src/http/index.ts'
import { COMPRESSIBLE } from '../../src/shared/headers.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { jobJson } from '../../src/jobs/index.ts'
import { isAdmin, requireAdmin } from '../../src/permissions/index.ts'
import { getRunner, runners } from '../../src/runners/index.ts'

/** Data sources (spec 3 §7): list, types, get, create, save, delete, test, schema. */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    const rows = await listDataSources(c.get('deps'), principal)
    const admin = isAdmin(principal)
    return c.json(rows.map((row) => dataSourceJson(row, getRunner(row.type), { admin, secretKey: c.get('deps').secretKey })))
  })
  .get('/types', requireCaller, (c) => {
    requireAdmin(c.var.principal)
    return c.json(runners.map(dataSourceTypeJson))
  })
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    const row = await createDataSource(c.get('deps'), principal, await jsonBody(c.req))
    return c.json(dataSourceJson({ ...row, view_only: false }, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey }))
  })
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const row = await getAccessible(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.json(dataSourceJson(row, getRunner(row.type), { admin: isAdmin(principal), secretKey: c.get('deps').secretKey }))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const row = await saveDataSource(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req))
    return c.json(dataSourceJson({ ...row, view_only: false }, getRunner(row.type), { admin: true, secretKey: c.get('deps').secretKey }))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteDataSource(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.body(null, 204)
  })
  .post('/:id/test', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await testDataSource(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
  .get('/:id/schema', requireCaller, async (c) => {
    const { principal } = c.var
    const refresh = ['true', '1'].includes(c.req.query('refresh') ?? '')
    const outcome = await schemaOrJob(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), refresh,
      (p) => resultsSchemaFor(c.get('deps').sql, p))
    if ('job' in outcome) return c.json({ job: jobJson(outcome.job) })
    // the cached schema is stored as the JSON the API sends: no parse, no re-encode
    return c.body(`{"schema":${outcome.schemaJson}}`, 200, { 'Content-Type': 'application/json', [COMPRESSIBLE]: '1' })
  })
