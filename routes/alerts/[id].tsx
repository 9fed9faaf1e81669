import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { idParam } from '../../src/http/index.ts'
import { renderAlertPage } from '../../src/ui/index.ts'

/** An alert's page (spec 2 §2 /alerts/{id}): its state, criteria, rule, template, destinations, history and deliveries. */
export default new Hono<Env>().get('/', (c) => renderAlertPage(c, idParam(c.req.param('id'), NotFound)))
