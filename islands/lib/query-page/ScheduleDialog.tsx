import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { Schedule } from '../query-list.ts'
import { ui } from '../ui.ts'
import { draftOf, intervalGroups, saveOutcome, todayUtc, unitOf, WEEKDAYS, withInterval, type ScheduleDraft } from './schedule.ts'
import { DialogHeader } from '../DialogHeader.tsx'
import { DialogContent } from '../DialogContent.tsx'

const t = queryTexts.queryPage
const MINUTE_STEP_SECONDS = 300 // spec 2 §5: the time picker moves in 5-minute steps

/**
 * The Refresh Schedule dialog (spec 2 §4): an interval from the configured list or Never; a UTC time for daily and
 * weekly ones; a weekday for weekly ones; an end date or none. `onSave(null)` clears the schedule.
 */
export function ScheduleDialog({ schedule, intervals, onSave, onClose }: {
  schedule: Schedule | null
  intervals: readonly number[]
  onSave: (schedule: ScheduleDraft | null) => Promise<boolean>
  onClose: () => void
}): JSX.Element {
  const [draft, setDraft] = useState(() => draftOf(schedule))
  const [busy, setBusy] = useState(false)
  const id = useId()
  // a saved interval the organization no longer offers (or set through the API) is still the one in force: it is
  // listed, so the select shows it rather than the first choice, Never
  const inForce = draftOf(schedule).interval
  const groups = intervalGroups(inForce ? [...new Set([...intervals, inForce])] : intervals)
  const unit = draft.interval === null ? null : unitOf(draft.interval).unit
  const timed = unit === 'day' || unit === 'week'

  async function submit() {
    const outcome = saveOutcome(schedule, draft)
    if (outcome.kind === 'unchanged') return onClose()
    setBusy(true)
    try {
      if (await onSave(outcome.schedule)) onClose()
    } finally {
      setBusy(false)
    }
  }

  const field = `${ui.input} ${ui.inputBorder} py-1.5`
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[26rem]`} aria-describedby={undefined}>
          <DialogHeader title={t.scheduleTitle} closeLabel={t.close} />
          <form className="flex flex-col gap-4 px-5 py-4" onSubmit={(e) => { e.preventDefault(); void submit() }}>
            <div>
              <label htmlFor={`${id}-interval`} className={ui.label}>{t.refreshEvery}</label>
              <select id={`${id}-interval`} className={field} value={draft.interval ?? ''}
                onChange={(e) => setDraft((d) => withInterval(d, e.target.value === '' ? null : Number(e.target.value)))}>
                <option value="">{t.never}</option>
                {groups.map((g) => (
                  <optgroup key={g.unit} label={`${t.unit[g.unit]}s`}>
                    {g.options.map((o) => <option key={o.seconds} value={o.seconds}>{o.label}</option>)}
                  </optgroup>
                ))}
              </select>
            </div>
            {timed && (
              <div className="flex gap-3">
                {unit === 'week' && (
                  <div className="flex-1">
                    <label htmlFor={`${id}-day`} className={ui.label}>{t.onDay}</label>
                    <select id={`${id}-day`} className={field} value={draft.day_of_week ?? ''}
                      onChange={(e) => setDraft((d) => ({ ...d, day_of_week: e.target.value || null }))}>
                      {/* saved without a weekday (through the API): it runs a week after the last run, which is what shows */}
                      {draft.day_of_week === null && <option value="">{t.lastRunWeekday}</option>}
                      {WEEKDAYS.map((day) => <option key={day} value={day}>{day}</option>)}
                    </select>
                  </div>
                )}
                <div className="flex-1">
                  <label htmlFor={`${id}-time`} className={ui.label}>{t.onTime}</label>
                  <input id={`${id}-time`} type="time" step={MINUTE_STEP_SECONDS} required className={field} value={draft.time ?? ''}
                    onChange={(e) => setDraft((d) => ({ ...d, time: e.target.value.slice(0, 5) || null }))} />
                </div>
              </div>
            )}
            {draft.interval !== null && (
              <fieldset>
                <legend className={ui.label}>{t.ends}</legend>
                <div className="flex items-center gap-4 text-sm text-slate-700 dark:text-slate-300">
                  <label className="flex items-center gap-1.5">
                    <input type="radio" name={`${id}-ends`} checked={draft.until === null} onChange={() => setDraft((d) => ({ ...d, until: null }))} />
                    {t.endsNever}
                  </label>
                  <label className="flex items-center gap-1.5">
                    <input type="radio" name={`${id}-ends`} checked={draft.until !== null} onChange={() => setDraft((d) => ({ ...d, until: d.until ?? todayUtc() }))} />
                    {t.endsOn}
                  </label>
                  {draft.until !== null && (
                    <input type="date" aria-label={t.endsDate} className={`${field} w-auto flex-1`} value={draft.until} required
                      onChange={(e) => setDraft((d) => ({ ...d, until: e.target.value || todayUtc() }))} />
                  )}
                </div>
              </fieldset>
            )}
            <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close type="button" className={ui.secondaryButton} disabled={busy}>{t.cancel}</Dialog.Close>
              <button type="submit" className={ui.primaryButton} disabled={busy} aria-busy={busy || undefined}>{t.save}</button>
            </div>
          </form>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
