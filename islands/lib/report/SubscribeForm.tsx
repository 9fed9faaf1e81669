import type { FormEvent, JSX } from 'react'
import { reportUiTexts as t } from '../../../src/shared/report-texts.ts'
import { ui } from '../ui.ts'
import { ChoiceBox } from './ChoiceBox.tsx'
import { ATTACHMENTS, maySave, type Named, type ReportEvent, type ReportState } from './model.ts'
import { RecipientFields } from './RecipientFields.tsx'
import { ScheduleFields } from './ScheduleFields.tsx'
import { ReportValues, type ReportParameters } from './ReportValues.tsx'

export interface SubscribeFormProps {
  me: number
  mayShare: boolean
  users: Named[]
  groups: Named[]
  destinations: (Named & { type: string })[]
  timeZone: string
  userTimeZone: string | null
  parameters?: ReportParameters
}

/** The Subscribe dialog's form: what it answered last, the schedule, recipients, values, attachments and its buttons. */
export function SubscribeForm({ p, state, dispatch, onSubmit }: {
  p: SubscribeFormProps
  state: ReportState
  dispatch: (event: ReportEvent) => void
  onSubmit: (event: FormEvent) => void
}): JSX.Element {
  const { busy, target } = state
  const zones = [...new Set([p.userTimeZone, p.timeZone].filter((z): z is string => !!z))]
  const sendNow = (to: 'me' | 'all') => dispatch({ type: 'sendNow', to })
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4 overflow-y-auto p-5" aria-busy={busy || undefined}>
      {state.failure && <div role="alert" className={ui.alert}>{state.failure}</div>}
      {state.message && <div role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-200">{state.message}</div>}
      {'query_id' in target && (
        <label className={ui.label}>{t.visualization}
          <select className={`${ui.input} ${ui.inputBorder}`} value={state.visualization} onChange={(e) => dispatch({ type: 'edit', change: { visualization: Number(e.target.value) } })}>
            {target.visualizations.map((v) => <option key={v.id} value={v.id}>{v.name}</option>)}
          </select>
        </label>
      )}
      <ScheduleFields state={state} zones={zones} userTimeZone={p.userTimeZone} dispatch={dispatch} />
      <RecipientFields state={state} me={p.me} mayShare={p.mayShare} users={p.users} groups={p.groups} destinations={p.destinations} dispatch={dispatch} />
      <ReportValues parameters={p.parameters} values={state.values} filters={state.filters} disabled={busy}
        onChange={(name, value) => dispatch({ type: 'setValue', name, value })} />
      <fieldset className="flex flex-wrap gap-3">
        <legend className={ui.label}>{t.attachments}</legend>
        {ATTACHMENTS.map((a) => <ChoiceBox key={a} value={a} label={t.attachmentLabels[a]} list={state.attachments} busy={busy} onToggle={(value) => dispatch({ type: 'toggle', list: 'attachments', value })} />)}
      </fieldset>
      <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={state.skipIfEmpty} onChange={(e) => dispatch({ type: 'edit', change: { skipIfEmpty: e.target.checked } })} />{t.skipIfEmpty}</label>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {state.saved && <button type="button" className={ui.secondaryButton} disabled={busy} onClick={() => sendNow('me')}>{t.sendPreview}</button>}
        {state.saved && <button type="button" className={ui.secondaryButton} disabled={busy} onClick={() => sendNow('all')}>{t.sendNow}</button>}
        <button type="submit" className={ui.primaryButton} disabled={busy || !maySave(state)}>{busy ? t.saving : t.save}</button>
      </div>
    </form>
  )
}
