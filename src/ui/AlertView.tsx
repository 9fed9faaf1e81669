import type { JSX, ReactNode } from 'react'
import AlertActions from '../../islands/AlertActions.tsx'
import type { Me } from '../../islands/lib/alert/DestinationsPanel.tsx'
import { StateBadge } from '../../islands/lib/alert/StateBadge.tsx'
import { ui } from '../../islands/lib/ui.ts'
import type { AlertDeliveryJson as DeliveryRow, AlertJson, AlertStateChangeJson as HistoryRow, AlertSubscriptionRefJson } from '../shared/api/alerts.ts'
import { criteriaText, durationText, hasCustomTemplate, ruleText } from '../shared/alert-form.ts'
import { alertPageTexts as t } from '../shared/alert-page-texts.ts'
import { alertTexts } from '../shared/alert-texts.ts'
import { formatDateTime, type DateFormats } from '../shared/time.ts'
import { FlashNotice } from './FlashNotice.tsx'

const when = (value: string | null, formats: DateFormats) => (value ? <time dateTime={value}>{formatDateTime(value, formats)}</time> : t.never)
const valueText = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v))

function Fact({ label, children }: { label: string; children: ReactNode }): JSX.Element {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:gap-4">
      <dt className="w-44 shrink-0 text-sm font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  )
}

function Details({ alert, formats }: { alert: AlertJson; formats: DateFormats }): JSX.Element {
  const o = alert.options
  const values = o.parameters && typeof o.parameters === 'object' ? Object.entries(o.parameters as Record<string, unknown>) : []
  // only an alert without values of its own (one made through the API) watches a parameterised query it cannot run
  const valuesMissing = values.length === 0 && (alert.query?.options.parameters?.length ?? 0) > 0
  return (
    <section aria-label={t.criteriaHeading} className={`${ui.card} order-3 p-5`}>
      <dl className="flex flex-col gap-3">
        <Fact label={t.queryHeading}>
          {alert.query ? <a href={`/queries/${alert.query.id}`} className={ui.link} data-alert-query>{alert.query.name}</a> : '—'}
          {valuesMissing && <span role="note" className="block text-amber-700 dark:text-amber-300">{alertTexts.parametersHint}</span>}
        </Fact>
        <Fact label={t.criteriaHeading}><span data-alert-criteria>{criteriaText(o)}</span></Fact>
        {values.length > 0 && (
          <Fact label={t.parameterValues}>
            {values.map(([name, value]) => <span key={name} className="mr-3"><code>{name}</code> = {valueText(value)}</span>)}
            {alert.check_interval && <span className="block text-slate-500 dark:text-slate-400">{t.checkedEvery(durationText(alert.check_interval))}</span>}
          </Fact>
        )}
        <Fact label={t.ruleHeading}><span data-alert-rule>{ruleText(alert.rearm)}</span></Fact>
        <Fact label={t.templateHeading}>
          <span data-alert-template>{hasCustomTemplate(o) ? t.templateCustomSummary : t.templateDefaultSummary}</span>
          {typeof o.custom_subject === 'string' && o.custom_subject && <span className="block text-slate-500 dark:text-slate-400">{t.subject}: {o.custom_subject}</span>}
        </Fact>
        <Fact label={t.lastTriggered}>{when(alert.last_triggered_at, formats)}</Fact>
      </dl>
    </section>
  )
}

const th = 'px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400'
const td = 'px-4 py-2 align-top text-slate-700 dark:text-slate-300'

function History({ rows, formats }: { rows: HistoryRow[]; formats: DateFormats }): JSX.Element {
  return (
    <section aria-labelledby="alert-history-title" className={`${ui.card} order-5 overflow-x-auto`}>
      <h2 id="alert-history-title" className="px-5 pt-4 pb-2 text-base font-semibold text-slate-900 dark:text-slate-100">{t.history}</h2>
      {rows.length === 0 ? <p className="px-5 pb-4 text-sm text-slate-600 dark:text-slate-400">{t.historyEmpty}</p> : (
        <table className="w-full text-sm" data-alert-history>
          <thead><tr><th className={th}>{t.historyWhen}</th><th className={th}>{t.historyChange}</th><th className={th}>{t.historyValue}</th><th className={th}>{t.historyNote}</th></tr></thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((r) => (
              <tr key={r.id}>
                <td className={`${td} whitespace-nowrap`}>{when(r.created_at, formats)}</td>
                <td className={td}><span className="inline-flex items-center gap-1"><StateBadge state={r.old_state} /> → <StateBadge state={r.new_state} /></span></td>
                <td className={`${td} break-all`}>{valueText(r.value)}</td>
                <td className={td}>{r.skipped ? (t.skipped[r.skipped] ?? r.skipped) : r.reason === 'subscribed' ? t.toldNewSubscriber : t.told}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

const statusTone: Record<string, string> = {
  sent: 'text-emerald-700 dark:text-emerald-300', failed: 'text-red-700 dark:text-red-300', refused: 'text-red-700 dark:text-red-300',
  pending: 'text-amber-700 dark:text-amber-300', sending: 'text-amber-700 dark:text-amber-300',
}

function targetLabel(target: Record<string, unknown>): string {
  const name = typeof target.name === 'string' ? target.name : ''
  if (target.kind === 'user_email') return typeof target.email === 'string' ? target.email : name
  return typeof target.type === 'string' ? `${name} (${target.type})` : name
}

function Deliveries({ rows, formats }: { rows: DeliveryRow[]; formats: DateFormats }): JSX.Element {
  return (
    <section aria-labelledby="alert-deliveries-title" className={`${ui.card} order-6 overflow-x-auto`}>
      <h2 id="alert-deliveries-title" className="px-5 pt-4 pb-2 text-base font-semibold text-slate-900 dark:text-slate-100">{t.deliveries}</h2>
      {rows.length === 0 ? <p className="px-5 pb-4 text-sm text-slate-600 dark:text-slate-400">{t.deliveriesEmpty}</p> : (
        <table className="w-full text-sm" data-alert-deliveries>
          <thead><tr>
            <th className={th}>{t.historyWhen}</th><th className={th}>{t.deliveryTarget}</th><th className={th}>{t.deliveryState}</th>
            <th className={th}>{t.deliveryStatus}</th><th className={th}>{t.deliveryAttempts}</th><th className={th}>{t.deliveryError}</th>
          </tr></thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((d) => (
              <tr key={d.id} data-delivery-status={d.status}>
                <td className={`${td} whitespace-nowrap`}>{when(d.sent_at ?? d.created_at, formats)}</td>
                <td className={`${td} whitespace-nowrap`}>{targetLabel(d.target)}</td>
                <td className={td}><StateBadge state={d.new_state} /></td>
                <td className={`${td} font-medium ${statusTone[d.status] ?? ''}`}>{t.deliveryStatuses[d.status] ?? d.status}</td>
                <td className={`${td} tabular-nums`}>{d.attempts}</td>
                <td className={`${td} min-w-[12rem] break-words`}>{[d.last_error, d.template_error].filter(Boolean).join(' · ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/**
 * An alert's page (spec 2 §2 /alerts/{id}): header, muted banner and Destinations panel (one island), the criteria,
 * rule and template, then the state history and the delivery log, drawn on the server. Parts are placed by `order`
 * in one column, since the island's parts sit among the server-drawn ones.
 */
export function AlertView({ alert, subscriptions, history, deliveries, canEdit, me, mailConfigured, formats, notice, cannotEdit }: {
  alert: AlertJson
  subscriptions: AlertSubscriptionRefJson[]
  history: HistoryRow[]
  deliveries: DeliveryRow[]
  canEdit: boolean
  me: Me
  mailConfigured: boolean
  formats: DateFormats
  notice?: string
  /** Opened as /edit without the right to: say so, and show the view (spec 2 §4, §8). */
  cannotEdit?: boolean
}): JSX.Element {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      {notice && <div className="order-0"><FlashNotice>{notice}</FlashNotice></div>}
      {cannotEdit && (
        <div role="alert" className="order-0 rounded-md border-l-4 border-amber-500 bg-white px-4 py-3 text-sm shadow-sm dark:bg-slate-900" data-cannot-edit>
          <strong className="block text-slate-900 dark:text-slate-100">{t.cannotEditTitle}</strong>
          <span className="text-slate-700 dark:text-slate-300">{t.cannotEditBody}</span>
        </div>
      )}
      {alert.check_error && (
        <div role="alert" className="order-0 rounded-md border-l-4 border-amber-500 bg-white px-4 py-3 text-sm shadow-sm dark:bg-slate-900" data-check-error>
          <strong className="block text-slate-900 dark:text-slate-100">{t.checkErrorTitle}</strong>
          <span className="text-slate-700 dark:text-slate-300">{alert.check_error}</span>
        </div>
      )}
      <AlertActions alert={{ id: alert.id, name: alert.name, state: alert.state, muted: alert.options.muted === true }}
        canEdit={canEdit} me={me} subscriptions={subscriptions} mailConfigured={mailConfigured} />
      <Details alert={alert} formats={formats} />
      <History rows={history} formats={formats} />
      <Deliveries rows={deliveries} formats={formats} />
    </div>
  )
}
