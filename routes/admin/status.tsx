import { Hono } from 'hono'
import SystemStatus from '../../islands/SystemStatus.tsx'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { systemStatus } from '../../src/monitoring/service.ts'
import { texts } from '../../src/shared/texts.ts'
import { dateFormatsOf } from '../../src/shared/time.ts'
import { AdminLayout } from '../../src/ui/AdminLayout.tsx'
import { renderShellPage } from '../../src/ui/Page.tsx'

/** System Status (spec 3 §2), super admins only: drawn with its figures, then kept fresh by its island. */
export default new Hono<Env>().get('/admin/status', async (c) => {
  const { principal, org } = signedIn(c)
  const status = await systemStatus(c.get('deps'), principal)
  return renderShellPage(c, (
    <AdminLayout active="status"><SystemStatus initial={status} formats={dateFormatsOf(org.settings)} /></AdminLayout>
  ), { title: texts.monitoring.systemStatus })
})
