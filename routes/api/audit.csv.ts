import { Hono } from 'hono'
import { auditCsv, parseAuditQuery } from '../../src/audit/index.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'

/** The audit log for admins: every event matching the same filters as /api/audit, as a streamed CSV. */
export default new Hono<Env>()
  .get('/', requireCaller, (c) => {
    const { principal } = c.var
    const stream = auditCsv(c.get('deps'), principal, parseAuditQuery(c.req.query()))
    return c.body(stream, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="audit-log.csv"',
      'Cache-Control': 'no-store',
    })
  })
