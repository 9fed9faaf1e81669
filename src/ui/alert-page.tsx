import type { Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import type { AlertSubscriptionRefJson } from '../shared/api/alerts.ts'
import { getAlert, alertDeliveries, alertHistory, listSubscriptions } from '../alerts/index.ts'
import type { Env } from '../http/index.ts'
import { signedIn } from '../http/index.ts'
import { alertPolicy, isAdmin, requireAllowed } from '../permissions/index.ts'
import { alertPageTexts as t } from '../shared/alert-page-texts.ts'
import { dateFormatsOf } from '../shared/time.ts'
import { AlertView } from './AlertView.tsx'
import { renderShellPage } from './Page.tsx'

/** The one-time notices the alert's own page shows after a save or Evaluate now (islands/lib/flash.ts). */
const FLASH_NOTICES = new Map([['alert_saved', t.saved], ['alert_evaluated', t.evaluated], ['alert_own_run', t.ownRunStarted]])

/** How many rows of history and deliveries the page shows (the API gives more on request). */
const LOG_ROWS = '50'

/**
 * An alert's page, from the same services as its API calls (so the same rights: whoever may see the alert's query).
 * `cannotEdit`: the edit address opened without the right to edit, which shows the view with a warning.
 */
export async function renderAlertPage(c: Context<Env>, id: number, o: { cannotEdit?: boolean } = {}): Promise<Response> {
  const { principal, org } = signedIn(c)
  requireAllowed(principal, 'list_alerts')
  const deps = c.get('deps')
  const alert = await getAlert(deps, principal, id)
  const [subscriptions, history, deliveries] = await Promise.all([
    listSubscriptions(deps, principal, id), alertHistory(deps, principal, id, LOG_ROWS), alertDeliveries(deps, principal, id, LOG_ROWS),
  ])
  const path = `/alerts/${id}`
  const notice = FLASH_NOTICES.get(getCookie(c, FLASH_COOKIE) ?? '')
  if (getCookie(c, FLASH_COOKIE)) deleteCookie(c, FLASH_COOKIE, { path })
  const subs: AlertSubscriptionRefJson[] = subscriptions.map((s) => ({
    id: s.id, alert_id: s.alert_id,
    user: { id: s.user?.id ?? 0, name: s.user?.name ?? '', email: s.user?.email ?? '' },
    destination: 'destination' in s && s.destination
      ? { id: s.destination.id, name: s.destination.name ?? '', type: s.destination.type ?? '' } : null,
  }))
  return renderShellPage(c, (
    <AlertView alert={alert} subscriptions={subs} history={history} deliveries={deliveries}
      canEdit={alertPolicy(principal, alert, true).manage === true} cannotEdit={o.cannotEdit} notice={notice}
      me={{ id: principal.id, email: principal.email, admin: isAdmin(principal) }}
      mailConfigured={Boolean(deps.config.mail)} formats={dateFormatsOf(org.settings)} />
  ), { title: alert.name, section: 'alerts' })
}
