import { Hono } from 'hono'
import { listAudit, parseAuditQuery } from '../../src/audit/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'

/** The audit log for admins, a page as JSON (routes/api/audit.csv.ts streams every matching event). */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await listAudit(c.get('deps'), principal, parseAuditQuery(c.req.query())))
  })
