import type { JSX } from 'react'
import { importTexts as t, type InstanceRunJson } from '../../../src/shared/import-summary.ts'
import { ui } from '../ui.ts'
import { InstanceReport, Progress } from './RunReports.tsx'

/** The run being followed, live: its progress, then its report. */
export function FollowedRun({ run }: { run: InstanceRunJson | null }): JSX.Element {
  if (!run) return <p className="text-sm text-slate-500">{t.none}</p>
  return (
    <section aria-live="polite" className={`${ui.card} flex flex-col gap-4 p-4`}>
      <h2 className="text-sm font-semibold">{run.from_url} — {t.status[run.status]}{run.origin_version ? ` (${run.origin_version})` : ''}</h2>
      <Progress run={run} />
      <InstanceReport run={run} />
    </section>
  )
}
