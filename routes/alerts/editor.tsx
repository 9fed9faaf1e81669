import { Hono } from 'hono'
import AlertForm from '../../islands/AlertForm.tsx'
import type { AlertFormJson } from '../../src/shared/api/alerts.ts'
import { alertRow, getAlert } from '../../src/alerts/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn, idParam } from '../../src/http/index.ts'
import { alertPolicy, requireAllowed } from '../../src/permissions/index.ts'
import { alertPageTexts as t } from '../../src/shared/alert-page-texts.ts'
import { renderAlertPage, renderShellPage } from '../../src/ui/index.ts'

function FormPage({ title, alert }: { title: string; alert: AlertFormJson | null }) {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{title}</h1>
      <AlertForm alert={alert} />
    </div>
  )
}

/**
 * The alert form's two addresses (spec 2 §2): /alerts/new, and /alerts/{id}/edit for the owner or an admin; anyone
 * else who may see the alert gets its view with the warning of spec 2 §8 instead.
 */
export default new Hono<Env>()
  .get('/alerts/new', (c) => {
    const { principal } = signedIn(c)
    requireAllowed(principal, 'list_alerts')
    return renderShellPage(c, <FormPage title={t.newAlert} alert={null} />, { title: t.newAlert, section: 'alerts' })
  })
  .get('/alerts/:id{[0-9]+}/edit', async (c) => {
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
