import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { apiCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { visualizationJson, createVisualization, deleteVisualization, saveVisualization } from '../../src/queries/index.ts'

/** A query's visualizations (spec 2 §7): create, save, delete; the response is the saved visualization. */
export default new Hono<Env>()
  .post('/', async (c) => {
    const { principal } = apiCaller(c)
    return c.json(visualizationJson(await createVisualization(c.get('deps'), principal, await jsonBody(c.req))))
  })
  .post('/:id', async (c) => {
    const { principal } = apiCaller(c)
    const id = idParam(c.req.param('id'), NotFound)
    return c.json(visualizationJson(await saveVisualization(c.get('deps'), principal, id, await jsonBody(c.req))))
  })
  .delete('/:id', async (c) => {
    const { principal } = apiCaller(c)
    await deleteVisualization(c.get('deps'), principal, idParam(c.req.param('id'), NotFound))
    return c.body(null, 204)
  })
