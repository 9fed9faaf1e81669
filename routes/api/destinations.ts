import { Hono } from 'hono'
import { destinationJson, destinationSummaryJson, destinationTypeJson, createDestination, deleteDestination, getDestination, listDestinations, saveDestination, testDestination, destinationTypes } from '../../src/destinations/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { destinationPolicy, requireRight } from '../../src/permissions/index.ts'

/** Alert destinations (spec 3 §7, reference §1.7): list (everyone), types, get, create, save, delete, Send Test (admins). */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json((await listDestinations(c.get('deps'), principal)).map(destinationSummaryJson))
  })
  .get('/types', requireCaller, (c) => {
    requireRight(destinationPolicy(c.var.principal).manage)
    return c.json(destinationTypes.types.map(destinationTypeJson))
  })
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    const row = await createDestination(c.get('deps'), principal, await jsonBody(c.req))
    return c.json(destinationJson(row, c.get('deps').secretKey))
  })
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const row = await getDestination(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.json(destinationJson(row, c.get('deps').secretKey))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const row = await saveDestination(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), await jsonBody(c.req))
    return c.json(destinationJson(row, c.get('deps').secretKey))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteDestination(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.body(null, 204)
  })
  .post('/:id/test', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await testDestination(c.get('deps'), principal, idParam(c.req.param('id'), NotFound)))
  })
