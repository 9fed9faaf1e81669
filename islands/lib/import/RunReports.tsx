import type { JSX } from 'react'
import { importTexts as t, summaryRows, type FilesRunJson, type InstanceRunJson } from '../../../src/shared/import-summary.ts'
import { ui } from '../ui.ts'

/** One bar per kind: how many of its objects the run has written so far. */
export function Progress({ run }: { run: InstanceRunJson }): JSX.Element {
  const kinds = Object.entries(run.progress).filter(([kind]) => kind !== 'reading')
  return (
    <div className="flex flex-col gap-2">
      {run.status === 'running' && run.report.reading && !kinds.length ? <p className="text-sm text-slate-600 dark:text-slate-400">{t.reading(run.report.reading)}</p> : null}
      {kinds.map(([kind, p]) => (
        <div key={kind} className="flex items-center gap-3 text-sm">
          <span className="w-32 text-slate-700 dark:text-slate-300">{kind.replace(/_/g, ' ')}</span>
          <progress className="h-2 flex-1" max={Math.max(1, p.total)} value={p.done} aria-label={kind} />
          <span className="w-24 text-right tabular-nums text-slate-600 dark:text-slate-400">{p.done} / {p.total}</span>
        </div>
      ))}
    </div>
  )
}

/** The summary table and the lists behind it: skipped with why, what to fill in by hand, notes. */
export function InstanceReport({ run }: { run: InstanceRunJson }): JSX.Element {
  const rows = summaryRows(run)
  const kinds = Object.entries(run.report.kinds ?? {})
  const skipped = kinds.flatMap(([kind, k]) => k.skipped.map((s) => ({ kind, ...s })))
  const fillIn = kinds.flatMap(([kind, k]) => k.fill_in.map((f) => ({ kind, ...f })))
  const notes = [...(run.report.notes ?? []), ...kinds.flatMap(([, k]) => k.notes)]
  return (
    <div className="flex flex-col gap-4 text-sm">
      {run.error ? <p role="alert" className={ui.alert}>{run.error}</p> : null}
      {run.status === 'done' && run.dry_run ? <p>{t.dryRunDone}</p> : null}
      {rows.length ? (
        <table className="w-full text-left">
          <thead><tr>{Object.values(t.columns).map((c) => <th key={c} className="py-1 pr-4 font-medium">{c}</th>)}</tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.kind} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1 pr-4">{r.kind.replace(/_/g, ' ')}</td>
                <td className="py-1 pr-4 tabular-nums">{r.brought}</td>
                <td className="py-1 pr-4 tabular-nums">{r.updated}</td>
                <td className="py-1 pr-4 tabular-nums">{r.skipped}</td>
                <td className="py-1 pr-4 tabular-nums">{r.fillIn}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {run.report.refreshes_queued ? <p>{t.refreshes(run.report.refreshes_queued)}</p> : null}
      {fillIn.length ? <section><h3 className="font-medium">{t.fillInTitle}</h3><ul className="list-disc pl-5">{fillIn.map((f, i) => <li key={i}>{f.kind}: {f.name} — {f.what}</li>)}</ul></section> : null}
      {skipped.length ? <section><h3 className="font-medium">{t.skippedTitle}</h3><ul className="list-disc pl-5">{skipped.map((s, i) => <li key={i}>{s.kind} {s.id} {s.name}: {s.why}</li>)}</ul></section> : null}
      {notes.length ? <section><h3 className="font-medium">{t.notesTitle}</h3><ul className="list-disc pl-5">{notes.map((n, i) => <li key={i}>{n}</li>)}</ul></section> : null}
    </div>
  )
}

/** An import of files: per kind what it created, updated, left as it was and archived; the files it could not use. */
export function FilesReport({ run }: { run: FilesRunJson }): JSX.Element {
  const report = run.report
  const rows = Object.entries(report.kinds ?? {}).filter(([, k]) => k.created + k.updated + k.unchanged + k.pruned > 0)
  const cols = t.filesColumns
  return (
    <div className="flex flex-col gap-4 text-sm">
      {rows.length ? (
        <table className="w-full text-left">
          <thead><tr>{[cols.kind, cols.created, cols.updated, cols.unchanged, cols.pruned].map((c) => <th key={c} className="py-1 pr-4 font-medium">{c}</th>)}</tr></thead>
          <tbody>
            {rows.map(([kind, k]) => (
              <tr key={kind} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1 pr-4">{kind}</td>
                {[k.created, k.updated, k.unchanged, k.pruned].map((n, i) => <td key={i} className="py-1 pr-4 tabular-nums">{n}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {report.errors?.length ? <section><h3 className="font-medium">{t.fileErrorsTitle}</h3><ul className="list-disc pl-5">{report.errors.map((e, i) => <li key={i}>{e.file}{e.line ? `:${e.line}` : ''}: {e.message}</li>)}</ul></section> : null}
      {report.notes?.length ? <section><h3 className="font-medium">{t.notesTitle}</h3><ul className="list-disc pl-5">{report.notes.map((n, i) => <li key={i}>{n}</li>)}</ul></section> : null}
    </div>
  )
}
