import { Hono } from 'hono'
import type { AlertFormJson } from '../../../src/shared/api/alerts.ts'
import { alertRow, getAlert } from '../../../src/alerts/index.ts'
import { NotFound } from '../../../src/errors.ts'
import type { Env } from '../../../src/http/index.ts'
import { signedIn, idParam } from '../../../src/http/index.ts'
import { alertPolicy, requireAllowed } from '../../../src/permissions/index.ts'
import { renderAlertPage, renderShellPage } from '../../../src/ui/index.ts'
import { FormPage } from '../_form.tsx'

/**
 * The alert form for an alert (spec 2 §2), for its owner or an admin; anyone else who may see the alert gets its view
 * with the warning of spec 2 §8 instead.
 */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = signedIn(c)
    requireAllowed(principal, 'list_alerts')
    const id = idParam(c.req.param('id'), NotFound)
    const row = await alertRow(c.get('deps'), principal, id)
    if (alertPolicy(principal, row, true).manage !== true) return renderAlertPage(c, id, { cannotEdit: true })
    const alert = await getAlert(c.get('deps'), principal, id)
    const shown: AlertFormJson = {
      id: alert.id, name: alert.name, options: alert.options, rearm: alert.rearm, check_interval: alert.check_interval,
      state: alert.state, query: { id: alert.query_id, name: alert.query?.name ?? '' },
    }
    return renderShellPage(c, <FormPage title={alert.name} alert={shown} />, { title: alert.name, section: 'alerts' })
  })
