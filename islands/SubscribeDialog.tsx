import * as Dialog from '@radix-ui/react-dialog'
import { useState, type FormEvent, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { reportUiTexts as t } from '../src/shared/report-texts.ts'
import { api, serverMessage } from './lib/api.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'
import { pageFilters, pageValues, reportParameters, ReportValues, type ReportParameters } from './lib/report/ReportValues.tsx'
import { ui } from './lib/ui.ts'

type Named = { id: number; name: string }

/** What the server decides for the dialog: the report's target, the caller, and whom they may send it to. */
export interface SubscribeDialogProps {
  target: { dashboard_id: number } | { query_id: number; visualizations: Named[] }
  me: number
  /** Edit rights on the dashboard (query) or admin: others, groups and destinations are offered. */
  mayShare: boolean
  users: Named[]
  groups: Named[]
  destinations: (Named & { type: string })[]
  /** The organization's time zone. */
  timeZone: string
  /** The caller's own (their profile), offered beside the organization's and chosen first; null when they set none. */
  userTimeZone: string | null
  /** The page's parameters, shown with the page's values: the report is sent with what the dialog holds. */
  parameters?: ReportParameters
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
const ATTACHMENTS = ['png', 'pdf', 'csv', 'xlsx']
type Frequency = 'hours' | 'daily' | 'weekly'

/**
 * **Subscribe…** on a dashboard and a query page: when (every N hours, daily or weekly on chosen days, until a date),
 * in which time zone, to whom (oneself; others, groups and destinations for editors and admins), what to attach and
 * whether to skip empty results. Save makes the report; Send now sends it at once, or as a preview to oneself.
 */
function SubscribeDialog(p: SubscribeDialogProps): JSX.Element {
  const [open, setOpen] = useState(false)
  const [frequency, setFrequency] = useState<Frequency>('weekly')
  const [hours, setHours] = useState(6)
  const [time, setTime] = useState('08:00')
  const [days, setDays] = useState<string[]>(['Monday'])
  const [until, setUntil] = useState('')
  const [timeZone, setTimeZone] = useState(p.userTimeZone ?? p.timeZone)
  const [values, setValues] = useState<Record<string, unknown>>({})
  const [filters, setFilters] = useState<Record<string, string[]>>({})
  const [visualization, setVisualization] = useState('query_id' in p.target ? p.target.visualizations[0]?.id ?? 0 : 0)
  const [recipients, setRecipients] = useState<string[]>([`user:${p.me}`])
  const [attachments, setAttachments] = useState<string[]>(['png'])
  const [skipIfEmpty, setSkipIfEmpty] = useState(false)
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState<{ id: number; next_send_at: string | null } | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])

  function body() {
    const schedule = frequency === 'hours'
      ? { interval: hours * 3600 }
      : { interval: frequency === 'daily' ? 86400 : 604800, time, days_of_week: frequency === 'weekly' ? days : [] }
    const target = 'dashboard_id' in p.target ? { dashboard_id: p.target.dashboard_id } : { query_id: p.target.query_id, visualization_id: visualization }
    return {
      ...target, parameters: reportParameters(p.parameters, values), filters, attachments, skip_if_empty: skipIfEmpty,
      schedule: { ...schedule, until: until || null, time_zone: timeZone },
      recipients: recipients.map((r) => {
        const [kind, id] = r.split(':')
        return kind === 'user' ? { user_id: Number(id) } : kind === 'group' ? { group_id: Number(id) } : { destination_id: Number(id) }
      }),
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setFailure(null)
    setMessage(null)
    try {
      const made = await api<{ id: number; next_send_at: string | null }>('POST', saved ? `/api/subscriptions/${saved.id}` : '/api/subscriptions', body())
      setSaved(made)
      setMessage(`${t.saved} ${made.next_send_at ? new Date(made.next_send_at).toLocaleString() : '—'}.`)
    } catch (error) {
      setFailure(serverMessage(error) || t.failed)
    } finally {
      setBusy(false)
    }
  }

  async function sendNow(to: 'me' | 'all') {
    if (!saved) return
    setBusy(true)
    setFailure(null)
    try {
      await api('POST', `/api/subscriptions/${saved.id}/send`, { to })
      setMessage(t.sent)
    } catch (error) {
      setFailure(serverMessage(error) || t.failed)
    } finally {
      setBusy(false)
    }
  }

  const box = (key: string, label: string, list: string[], set: (v: string[]) => void) => (
    <label key={key} className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
      <input type="checkbox" checked={list.includes(key)} disabled={busy} onChange={() => set(toggle(list, key))} />{label}
    </label>
  )
  const zones = [...new Set([p.userTimeZone, p.timeZone].filter((z): z is string => !!z))]
  function openChange(next: boolean) {
    if (busy) return
    // the page's values as they are when the dialog opens (Apply may have changed them since the page loaded)
    if (next) {
      setValues(pageValues(p.parameters))
      setFilters(pageFilters())
    }
    setOpen(next)
  }
  return (
    <Dialog.Root open={open} onOpenChange={openChange}>
      <Dialog.Trigger className={ui.secondaryButton} data-subscribe>{t.subscribe}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[36rem]`} aria-describedby={undefined}>
          <DialogHeader title={t.title} closeLabel={t.close} busy={busy} />
          <form onSubmit={save} className="flex flex-col gap-4 overflow-y-auto p-5" aria-busy={busy || undefined}>
            {failure && <div role="alert" className={ui.alert}>{failure}</div>}
            {message && <div role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-200">{message}</div>}
            {'query_id' in p.target && (
              <label className={ui.label}>{t.visualization}
                <select className={`${ui.input} ${ui.inputBorder}`} value={visualization} onChange={(e) => setVisualization(Number(e.target.value))}>
                  {p.target.visualizations.map((v) => <option key={v.id} value={v.id}>{v.name}</option>)}
                </select>
              </label>
            )}
            <fieldset className="flex flex-wrap items-end gap-3">
              <legend className={ui.label}>{t.when}</legend>
              <select aria-label={t.when} className={`${ui.input} ${ui.inputBorder} w-auto`} value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)}>
                <option value="hours">{t.everyHours}</option><option value="daily">{t.daily}</option><option value="weekly">{t.weekly}</option>
              </select>
              {frequency === 'hours'
                ? <label className="text-sm">{t.hours} <input type="number" min={1} max={168} value={hours} onChange={(e) => setHours(Number(e.target.value))} className={`${ui.input} ${ui.inputBorder} w-24`} /></label>
                : <label className="text-sm">{t.time} <input type="time" value={time} onChange={(e) => setTime(e.target.value)} className={`${ui.input} ${ui.inputBorder} w-32`} /></label>}
              <label className="text-sm">{t.until} <input type="date" value={until} onChange={(e) => setUntil(e.target.value)} className={`${ui.input} ${ui.inputBorder} w-40`} /></label>
            </fieldset>
            {frequency === 'weekly' && <div className="flex flex-wrap gap-3" role="group" aria-label={t.days}>{WEEKDAYS.map((d) => box(d, d.slice(0, 3), days, setDays))}</div>}
            <label className={ui.label}>{t.timeZone}
              <select value={timeZone} onChange={(e) => setTimeZone(e.target.value)} className={`${ui.input} ${ui.inputBorder}`}>
                {zones.map((z) => <option key={z} value={z}>{z === p.userTimeZone ? t.ownZone(z) : t.orgZone(z)}</option>)}
              </select>
            </label>
            <fieldset className="flex flex-col gap-1">
              <legend className={ui.label}>{t.recipients}</legend>
              {box(`user:${p.me}`, t.me, recipients, setRecipients)}
              {p.mayShare && p.users.filter((u) => u.id !== p.me).map((u) => box(`user:${u.id}`, u.name, recipients, setRecipients))}
              {p.mayShare && p.groups.map((g) => box(`group:${g.id}`, `${t.groups}: ${g.name}`, recipients, setRecipients))}
              {p.mayShare && p.destinations.map((d) => box(`destination:${d.id}`, `${d.name} (${d.type})`, recipients, setRecipients))}
            </fieldset>
            <ReportValues parameters={p.parameters} values={values} filters={filters} disabled={busy}
              onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))} />
            <fieldset className="flex flex-wrap gap-3">
              <legend className={ui.label}>{t.attachments}</legend>
              {ATTACHMENTS.map((a) => box(a, t.attachmentLabels[a], attachments, setAttachments))}
            </fieldset>
            <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={skipIfEmpty} onChange={(e) => setSkipIfEmpty(e.target.checked)} />{t.skipIfEmpty}</label>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              {saved && <button type="button" className={ui.secondaryButton} disabled={busy} onClick={() => sendNow('me')}>{t.sendPreview}</button>}
              {saved && <button type="button" className={ui.secondaryButton} disabled={busy} onClick={() => sendNow('all')}>{t.sendNow}</button>}
              <button type="submit" className={ui.primaryButton} disabled={busy || recipients.length === 0}>{busy ? t.saving : t.save}</button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('SubscribeDialog', SubscribeDialog)
