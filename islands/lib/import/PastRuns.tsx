import type { JSX } from 'react'
import { importTexts as t, type ImportRunJson } from '../../../src/shared/import-summary.ts'
import { ui } from '../ui.ts'
import { FilesReport, InstanceReport } from './RunReports.tsx'

/** Earlier runs, newest first, each opened to its report: imports from an instance and of files alike. */
export function PastRuns({ runs }: { runs: ImportRunJson[] }): JSX.Element | null {
  if (!runs.length) return null
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">{t.pastRuns}</h2>
      {runs.map((r) => (
        <details key={r.id} className={`${ui.card} p-3`}>
          <summary className="cursor-pointer text-sm">{r.kind === 'files' ? t.files : r.from_url} — {t.status[r.status]}{r.dry_run ? ` (${t.dryRunShort})` : ''} — {t.when(r.created_at)}</summary>
          <div className="mt-3">{r.kind === 'files' ? <FilesReport run={r} /> : <InstanceReport run={r} />}</div>
        </details>
      ))}
    </section>
  )
}
