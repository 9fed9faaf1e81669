import { Hono, type Context } from 'hono'
import { drawingInput, widgetDrawing, widgetResultsCaller, createWidget, deleteWidget, updateWidget } from '../../src/dashboards/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, requestDateFormats, idParam, jsonBody } from '../../src/http/index.ts'

const widgetId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/**
 * Widgets of dashboards (spec 2 §7 "Widgets"; reference §7.2): add, change text or options, remove; and a chart
 * widget's result drawn by the server for given parameter values and filters (decision 0020).
 */
export default new Hono<Env>()
  .get('/:id/drawing', async (c) => {
    // a signed-in caller, or a shared dashboard's token (its own widgets only)
    const caller = await widgetResultsCaller(c.get('deps'), c.get('principal'), c.get('objectApiKey'))
    c.header('Cache-Control', 'no-store')
    return c.json(await widgetDrawing(c.get('deps'), caller, widgetId(c), drawingInput(c.req.query()), requestDateFormats(c)))
  })
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await createWidget(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await updateWidget(c.get('deps'), principal, widgetId(c), await jsonBody(c.req)))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    await deleteWidget(c.get('deps'), principal, widgetId(c))
    return c.json(null)
  })
