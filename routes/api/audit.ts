import { Hono } from 'hono'
import { auditCsv, listAudit, parseAuditQuery } from '../../src/audit/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'

/** The audit log for admins: a page as JSON, or every matching event as a streamed CSV. */
export default new Hono<Env>()
  .get('/api/audit', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await listAudit(c.get('deps'), principal, parseAuditQuery(c.req.query())))
  })
  .get('/api/audit.csv', requireCaller, (c) => {
    const { principal } = c.var
    const stream = auditCsv(c.get('deps'), principal, parseAuditQuery(c.req.query()))
    return c.body(stream, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="audit-log.csv"',
      'Cache-Control': 'no-store',
    })
  })
