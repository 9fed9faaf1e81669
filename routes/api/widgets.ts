import { Hono, type Context } from 'hono'
import { createWidget, deleteWidget, updateWidget } from '../../src/dashboards/widgets.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { apiCaller } from '../../src/http/guards.ts'
import { idParam, jsonBody } from '../../src/http/validate.ts'

const widgetId = (c: Context<Env>) => idParam(c.req.param('id'), NotFound)

/** Widgets of dashboards (spec 2 §7 "Widgets"; reference §7.2): add, change text or options, remove. */
export default new Hono<Env>()
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
