import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { visualizationJson, createVisualization, deleteVisualization, saveVisualization } from '../../src/queries/index.ts'

/** A query's visualizations (spec 2 §7): create, save, delete; the response is the saved visualization. */
export default new Hono<Env>()
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(visualizationJson(await createVisualization(c.get('deps'), principal, await jsonBody(c.req))))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const id = idParam(c.req.param('id'), NotFound)
    return c.json(visualizationJson(await saveVisualization(c.get('deps'), principal, id, await jsonBody(c.req))))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteVisualization(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.body(null, 204)
  })
