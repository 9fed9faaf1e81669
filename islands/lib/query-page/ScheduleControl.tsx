import { lazy, Suspense, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { toast } from '../bus.ts'
import { schedulePhrase, type Schedule } from '../query-list.ts'
import { ui } from '../ui.ts'

const ScheduleDialog = lazy(() => import('./ScheduleDialog.tsx').then((m) => ({ default: m.ScheduleDialog })))
const t = queryTexts.queryPage

/**
 * 'Refresh Schedule: Every day at 00:15', the phrase opening the Refresh Schedule dialog for those who may change it
 * (spec 2 §2), on both of a query's pages.
 */
export function ScheduleControl({ schedule, canSchedule, intervals, save }: {
  schedule: Schedule | null
  canSchedule: boolean
  intervals: number[]
  save(schedule: Schedule | null): Promise<boolean>
}): JSX.Element {
  const [open, setOpen] = useState(false)
  const phrase = schedulePhrase(schedule)
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <svg viewBox="0 0 24 24" className="h-4 w-4 shrink-0 text-slate-400" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></svg>
      <span className="text-slate-500 dark:text-slate-400">{t.refreshSchedule}:</span>
      {canSchedule
        ? <button type="button" className={`${ui.link} truncate`} title={phrase.full} onClick={() => setOpen(true)} data-schedule>{phrase.short}</button>
        : <span className="truncate font-medium text-slate-800 dark:text-slate-200" title={phrase.full} data-schedule>{phrase.short}</span>}
      {open && (
        <Suspense fallback={null}>
          <ScheduleDialog schedule={schedule} intervals={intervals} onClose={() => setOpen(false)}
            onSave={async (next) => {
              const ok = await save(next)
              if (ok) toast(t.scheduleSaved)
              return ok
            }} />
        </Suspense>
      )}
    </div>
  )
}
