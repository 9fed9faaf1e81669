import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { idParam } from '../../src/http/validate.ts'
import { renderDataSourcePage } from '../../src/ui/DataSourcePage.tsx'

/** One data source's page (spec 3 §2): its settings, Save, Test Connection and Delete. Admins only. */
export default new Hono<Env>().get('/data_sources/:id{[0-9]+}', (c) => renderDataSourcePage(c, idParam(c.req.param('id'), NotFound)))
