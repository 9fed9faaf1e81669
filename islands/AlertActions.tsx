import { lazy, Suspense, useState, type JSX } from 'react'
import { alertPageTexts as t } from '../src/shared/alert-page-texts.ts'
import { island } from '../src/shared/island.tsx'
import { api, serverMessage } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashNextPage } from './lib/flash.ts'
import { DestinationsPanel, type Me } from './lib/alert/DestinationsPanel.tsx'
import { StateBadge } from './lib/alert/StateBadge.tsx'
import type { AlertSubscriptionRefJson } from '../src/shared/api/alerts.ts'
import { MoreMenu } from './lib/query-page/MoreMenu.tsx'
import { ui } from './lib/ui.ts'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))

interface Props {
  alert: { id: number; name: string; state: string; muted: boolean }
  canEdit: boolean
  me: Me
  subscriptions: AlertSubscriptionRefJson[]
  mailConfigured: boolean
}

/**
 * The interactive parts of an alert's page (spec 2 §2): the header's Edit and Evaluate now buttons (the owner's and
 * admins'; `POST api/alerts/{id}/eval` refuses others too) and menu (mute, unmute, delete),
 * the muted banner with Unmute, and the Destinations panel. Its container has no box (display: contents), so the
 * parts take their places in the page's column by `order` among the server-drawn sections.
 */
function AlertActions({ alert, canEdit, me, subscriptions, mailConfigured }: Props): JSX.Element {
  const [muted, setMuted] = useState(alert.muted)
  const [busy, setBusy] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const [evaluating, setEvaluating] = useState(false)
  const noRights = canEdit ? undefined : t.cannotEditTooltip

  // the page is drawn on the server (state, history, deliveries): it is drawn again to show what the evaluation did
  async function evaluateNow() {
    setEvaluating(true)
    try {
      const after = await api<{ check_interval: number | null }>('POST', `/api/alerts/${alert.id}/eval`)
      const path = `/alerts/${alert.id}`
      flashNextPage(after.check_interval ? 'alert_own_run' : 'alert_evaluated', path)
      window.location.assign(path)
    } catch (error) {
      toast(t.failedEvaluating, 'error', { description: serverMessage(error) || undefined })
      setEvaluating(false)
    }
  }

  async function mute(next: boolean) {
    setBusy(true)
    try {
      await api(next ? 'POST' : 'DELETE', `/api/alerts/${alert.id}/mute`)
      setMuted(next)
      toast(next ? t.muted : t.unmuted)
    } catch {
      toast(next ? t.failedMuting : t.failedUnmuting, 'error')
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    try {
      await api('DELETE', `/api/alerts/${alert.id}`)
      flashNextPage('alert_deleted', '/alerts')
      window.location.assign('/alerts')
    } catch {
      toast(t.failedDeleting, 'error')
      setConfirmingDelete(false)
    }
  }

  return (
    <>
      <header className="order-1 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 basis-full break-words text-2xl sm:flex-1 sm:basis-auto font-semibold tracking-tight text-slate-900 dark:text-slate-100">{alert.name}</h1>
        <StateBadge state={alert.state} />
        {canEdit
          ? <a href={`/alerts/${alert.id}/edit`} className={ui.secondaryButton}>{t.edit}</a>
          : <span title={noRights}><button type="button" className={ui.secondaryButton} disabled aria-description={noRights}>{t.edit}</button></span>}
        {canEdit && (
          <button type="button" className={ui.secondaryButton} disabled={evaluating} aria-busy={evaluating || undefined} onClick={evaluateNow}>
            {evaluating ? t.evaluating : t.evaluateNow}
          </button>
        )}
        <MoreMenu items={[
          muted
            ? { label: t.unmute, onSelect: () => mute(false), disabledReason: noRights ?? (busy ? t.saving : undefined) }
            : { label: t.mute, onSelect: () => mute(true), disabledReason: noRights ?? (busy ? t.saving : undefined) },
          { label: t.delete, onSelect: () => setConfirmingDelete(true), disabledReason: noRights, danger: true },
        ]} />
      </header>
      {muted && (
        <div role="status" className="order-2 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100" data-muted-banner>
          <span className="min-w-0 flex-1"><strong className="block">{t.mutedTitle}</strong>{t.mutedBody}</span>
          {canEdit && <button type="button" className={ui.secondaryButton} disabled={busy} onClick={() => mute(false)}>{t.unmuteButton}</button>}
        </div>
      )}
      <DestinationsPanel alertId={alert.id} me={me} initial={subscriptions} mailConfigured={mailConfigured} />
      {confirmingDelete && (
        <Suspense fallback={null}>
          <ConfirmDialog title={t.deleteTitle} body={t.deleteBody} confirm={t.delete} busyLabel={t.deleting} cancel={t.cancel}
            onConfirm={remove} onClose={() => setConfirmingDelete(false)} />
        </Suspense>
      )}
    </>
  )
}

export default island('AlertActions', AlertActions)
