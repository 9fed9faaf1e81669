import { Hono, type Context } from 'hono'
import { drawingInput, widgetDrawing } from '../../src/dashboards/widget-results.ts'
import { widgetResultsCaller } from '../../src/dashboards/sharing.ts'
import { createWidget, deleteWidget, updateWidget } from '../../src/dashboards/widgets.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { requestDateFormats } from '../../src/http/date-formats.ts'
import { idParam, jsonBody } from '../../src/http/validate.ts'

const widgetId = (c: Context<Env>) => idParam(c.req.param('id'), NotFound)

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
  .post('/', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await createWidget(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .post('/:id', async (c) => {
    const { principal } = apiCaller(c)
    c.header('Cache-Control', 'no-store')
    return c.json(await updateWidget(c.get('deps'), principal, widgetId(c), await jsonBody(c.req)))
  })
  .delete('/:id', async (c) => {
    const { principal } = apiCaller(c)
    await deleteWidget(c.get('deps'), principal, widgetId(c))
    return c.json(null)
  })
