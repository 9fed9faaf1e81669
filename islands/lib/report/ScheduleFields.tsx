import type { JSX } from 'react'
import { reportUiTexts as t } from '../../../src/shared/report-texts.ts'
import { ui } from '../ui.ts'
import { ChoiceBox } from './ChoiceBox.tsx'
import { WEEKDAYS, type Frequency, type ReportEvent, type ReportState } from './model.ts'

/** When the report goes out: every N hours, or daily or weekly (on chosen days) at a time; until a date; on which clock. */
export function ScheduleFields({ state, zones, userTimeZone, dispatch }: {
  state: ReportState
  /** The caller's own time zone (when they set one) and the organization's. */
  zones: string[]
  userTimeZone: string | null
  dispatch: (event: ReportEvent) => void
}): JSX.Element {
  const edit = (change: Extract<ReportEvent, { type: 'edit' }>['change']) => dispatch({ type: 'edit', change })
  const field = `${ui.input} ${ui.inputBorder}`
  return (
    <>
      <fieldset className="flex flex-wrap items-end gap-3">
        <legend className={ui.label}>{t.when}</legend>
        <select aria-label={t.when} className={`${field} w-auto`} value={state.frequency} onChange={(e) => edit({ frequency: e.target.value as Frequency })}>
          <option value="hours">{t.everyHours}</option><option value="daily">{t.daily}</option><option value="weekly">{t.weekly}</option>
        </select>
        {state.frequency === 'hours'
          ? <label className="text-sm">{t.hours} <input type="number" min={1} max={168} value={state.hours} onChange={(e) => edit({ hours: Number(e.target.value) })} className={`${field} w-24`} /></label>
          : <label className="text-sm">{t.time} <input type="time" value={state.time} onChange={(e) => edit({ time: e.target.value })} className={`${field} w-32`} /></label>}
        <label className="text-sm">{t.until} <input type="date" value={state.until} onChange={(e) => edit({ until: e.target.value })} className={`${field} w-40`} /></label>
      </fieldset>
      {state.frequency === 'weekly' && (
        <div className="flex flex-wrap gap-3" role="group" aria-label={t.days}>
          {WEEKDAYS.map((d) => <ChoiceBox key={d} value={d} label={d.slice(0, 3)} list={state.days} busy={state.busy} onToggle={(value) => dispatch({ type: 'toggle', list: 'days', value })} />)}
        </div>
      )}
      <label className={ui.label}>{t.timeZone}
        <select value={state.timeZone} onChange={(e) => edit({ timeZone: e.target.value })} className={field}>
          {zones.map((z) => <option key={z} value={z}>{z === userTimeZone ? t.ownZone(z) : t.orgZone(z)}</option>)}
        </select>
      </label>
    </>
  )
}
