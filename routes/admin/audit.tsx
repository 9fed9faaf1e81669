import { Hono } from 'hono'
import { listAudit, parseAuditQuery } from '../../src/audit/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { auditTexts } from '../../src/shared/audit-texts.ts'
import { AdminLayout, AuditLogPage, type AuditFilterValues, renderShellPage } from '../../src/ui/index.ts'

const FILTERS = ['user_id', 'action', 'object_type', 'object_id', 'since', 'until'] as const

/** The audit log page, admins only (members get the 403 page): filtered by the address's GET parameters. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  const raw = c.req.query()
  const page = await listAudit(c.get('deps'), principal, parseAuditQuery(raw))
  const values: AuditFilterValues = Object.fromEntries(FILTERS.filter((k) => raw[k]).map((k) => [k, raw[k]]))
  return renderShellPage(c, (
    <AdminLayout active="audit"><AuditLogPage page={page} values={values} /></AdminLayout>
  ), { title: auditTexts.title })
})
