import { Hono } from 'hono'
import SystemStatus from '../../islands/SystemStatus.tsx'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { systemStatus } from '../../src/monitoring/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { dateFormatsOf } from '../../src/shared/time.ts'
import { AdminLayout, renderShellPage } from '../../src/ui/index.ts'

/** System Status (spec 3 §2), super admins only: drawn with its figures, then kept fresh by its island. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const status = await systemStatus(c.get('deps'), principal)
  return renderShellPage(c, (
    <AdminLayout active="status"><SystemStatus initial={status} formats={dateFormatsOf(org.settings)} /></AdminLayout>
  ), { title: texts.monitoring.systemStatus })
})
