import { Hono } from 'hono'
import { databricksColumns, databricksDatabases, databricksTables } from '../../src/data-sources/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam } from '../../src/http/index.ts'

const refresh = (value: string | undefined) => value !== undefined && value !== 'false'

/** The Databricks schema browser's three calls (spec 2 §7, spec 3 §7). */
export default new Hono<Env>()
  .get('/databases/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await databricksDatabases(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), refresh(c.req.query('refresh'))))
  })
  .get('/databases/:id/:database/tables', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await databricksTables(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), c.req.param('database'), refresh(c.req.query('refresh'))))
  })
  .get('/databases/:id/:database/columns/:table', requireCaller, async (c) => {
    const { principal } = c.var
    return c.json(await databricksColumns(c.get('deps'), principal, idParam(c.req.param('id'), NotFound), c.req.param('database'), c.req.param('table')))
  })
