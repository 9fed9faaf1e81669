import { lazy, Suspense, useState, type JSX } from 'react'
import { adminTexts } from '../../../src/shared/admin-texts.ts'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { ui } from '../ui.ts'
import { DestinationIcon } from '../DestinationIcon.tsx'
import type { AlertSubscriptionRefJson } from '../../../src/shared/api/alerts.ts'

const AddDestinationsDialog = lazy(() => import('./AddDestinationsDialog.tsx'))

export interface Me {
  id: number
  email: string
  admin: boolean
}

/**
 * The alert's Destinations panel (spec 2 §2): who is told. Anyone who sees the alert subscribes their own e-mail or
 * adds the organization's destinations; a subscription is removed by its subscriber or an admin (§6).
 */
export function DestinationsPanel({ alertId, me, initial, mailConfigured }: {
  alertId: number; me: Me; initial: AlertSubscriptionRefJson[]; mailConfigured: boolean
}): JSX.Element {
  const [subscriptions, setSubscriptions] = useState(initial)
  const [adding, setAdding] = useState(false)
  const [busy, setBusy] = useState<number | 'me' | null>(null)
  const mine = subscriptions.find((s) => !s.destination && s.user?.id === me.id)
  const subscribedIds = subscriptions.flatMap((s) => (s.destination ? [s.destination.id] : []))

  async function subscribe(destinationId?: number): Promise<boolean> {
    try {
      const created = await api<AlertSubscriptionRefJson>('POST', `/api/alerts/${alertId}/subscriptions`, destinationId ? { destination_id: destinationId } : {})
      setSubscriptions((list) => [...list, created])
      return true
    } catch {
      return false
    }
  }

  async function subscribeMe() {
    setBusy('me')
    if (await subscribe()) toast(t.subscribed)
    else toast(t.failedSubscribing, 'error')
    setBusy(null)
  }

  async function add(ids: number[]) {
    let failed = 0
    for (const id of ids) if (!(await subscribe(id))) failed++
    if (failed) toast(t.failedSomeItems, 'error')
    else toast(t.subscribed)
    setAdding(false)
  }

  async function remove(s: AlertSubscriptionRefJson) {
    setBusy(s.id)
    try {
      await api('DELETE', `/api/alerts/${alertId}/subscriptions/${s.id}`)
      setSubscriptions((list) => list.filter((x) => x.id !== s.id))
    } catch {
      toast(t.failedUnsubscribing, 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <section aria-labelledby="alert-destinations-title" className={`${ui.card} order-4 flex flex-col gap-3 p-5`} data-destinations>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="alert-destinations-title" className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.destinations}</h2>
        <div className="flex flex-wrap gap-2">
          {!mine && (
            <button type="button" className={ui.secondaryButton} disabled={busy === 'me'} onClick={subscribeMe}>{t.subscribeMe}</button>
          )}
          <button type="button" className={ui.primaryButton} onClick={() => setAdding(true)}>{t.addDestinations}</button>
        </div>
      </div>
      {!mailConfigured && <p role="note" className="text-sm text-amber-700 dark:text-amber-300">{adminTexts.orgSettings.mailWarning(t.mailFeature)}</p>}
      {subscriptions.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t.noSubscriptions}</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-labelledby="alert-destinations-title">
          {subscriptions.map((s) => {
            const label = s.destination ? s.destination.name : s.user?.id === me.id ? t.myEmail(s.user.email) : s.user?.email ?? ''
            const canRemove = me.admin || s.user?.id === me.id
            return (
              <li key={s.id} className="flex items-center gap-3 py-2" data-subscription={s.destination ? `destination-${s.destination.id}` : `email-${s.user?.id}`}>
                <DestinationIcon type={s.destination?.type ?? 'email'} className="h-7 w-7" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-slate-800 dark:text-slate-100">{label}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{s.destination ? s.destination.type : t.emailType}</span>
                </span>
                {canRemove && (
                  <button type="button" className={`${ui.dangerButton} min-h-8 px-3 py-1`} disabled={busy === s.id} aria-label={t.removeNamed(label)}
                    onClick={() => remove(s)}>{t.remove}</button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {adding && (
        <Suspense fallback={null}>
          <AddDestinationsDialog subscribed={subscribedIds} admin={me.admin} onAdd={add} onClose={() => setAdding(false)} />
        </Suspense>
      )}
    </section>
  )
}
