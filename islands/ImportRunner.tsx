import { useEffect, useState, type FormEvent, type JSX } from 'react'
import { importTexts as t, summaryRows, type FilesRunJson, type ImportRunJson, type InstanceRunJson } from '../src/shared/import-summary.ts'
import { island } from '../src/shared/island.tsx'
import { api, serverMessage } from './lib/api.ts'
import { ui } from './lib/ui.ts'

const POLL_MS = 1000

/** One bar per kind: how many of its objects the run has written so far. */
function Progress({ run }: { run: InstanceRunJson }): JSX.Element {
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
function Report({ run }: { run: InstanceRunJson }): JSX.Element {
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
function FilesReport({ run }: { run: FilesRunJson }): JSX.Element {
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

/** Earlier runs, newest first, each opened to its report: imports from an instance and of files alike. */
function PastRuns({ runs }: { runs: ImportRunJson[] }): JSX.Element | null {
  if (!runs.length) return null
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">{t.pastRuns}</h2>
      {runs.map((r) => (
        <details key={r.id} className={`${ui.card} p-3`}>
          <summary className="cursor-pointer text-sm">{r.kind === 'files' ? t.files : r.from_url} — {t.status[r.status]}{r.dry_run ? ` (${t.dryRunShort})` : ''} — {t.when(r.created_at)}</summary>
          <div className="mt-3">{r.kind === 'files' ? <FilesReport run={r} /> : <Report run={r} />}</div>
        </details>
      ))}
    </section>
  )
}

/** The run being followed: read again every second until it ends. */
function useRun(initial: InstanceRunJson | null) {
  const [run, setRun] = useState(initial)
  useEffect(() => {
    if (!run || run.status === 'done' || run.status === 'failed') return
    const timer = setTimeout(() => {
      api<InstanceRunJson>('GET', `/api/imports/${run.id}`).then(setRun, () => setRun({ ...run }))
    }, POLL_MS)
    return () => clearTimeout(timer)
  }, [run])
  return [run, setRun] as const
}

/** /admin/import: start a run against the old instance and watch it, live; past runs below. */
function ImportRunner({ runs }: { runs: ImportRunJson[] }): JSX.Element {
  // the latest import from an instance is the one followed; every other run is listed below it
  const latest = runs.find((r): r is InstanceRunJson => r.kind === 'instance') ?? null
  const [run, setRun] = useRun(latest)
  const [fromUrl, setFromUrl] = useState(latest?.from_url ?? '')
  const [apiKey, setApiKey] = useState('')
  const [dryRun, setDryRun] = useState(false)
  const [keepIds, setKeepIds] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const active = run && (run.status === 'queued' || run.status === 'running')

  async function start(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError('')
    try {
      setRun(await api<InstanceRunJson>('POST', '/api/imports', { from_url: fromUrl, api_key: apiKey, dry_run: dryRun, keep_ids: keepIds }))
      setApiKey('')
    } catch (err) {
      setError(serverMessage(err) || String(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-slate-600 dark:text-slate-400">{t.intro}</p>
      <form onSubmit={start} className={`${ui.card} flex flex-col gap-4 p-4`}>
        <div><label htmlFor="import-from" className={ui.label}>{t.fromUrl}</label>
          <input id="import-from" className={`${ui.input} ${ui.inputBorder}`} type="url" required value={fromUrl} onChange={(e) => setFromUrl(e.target.value)} placeholder="https://redash.example.com" /></div>
        <div><label htmlFor="import-key" className={ui.label}>{t.apiKey}</label>
          <input id="import-key" className={`${ui.input} ${ui.inputBorder}`} type="password" autoComplete="off" required value={apiKey} onChange={(e) => setApiKey(e.target.value)} aria-describedby="import-key-hint" />
          <p id="import-key-hint" className="mt-1 text-xs text-slate-500">{t.apiKeyHint}</p></div>
        <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />{t.dryRun}</label>
        <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={keepIds} onChange={(e) => setKeepIds(e.target.checked)} />{t.keepIds}</label>
        {error ? <p role="alert" className={ui.alert}>{error}</p> : null}
        <div><button type="submit" className={ui.primaryButton} disabled={busy || !!active}>{busy ? t.starting : t.start}</button></div>
      </form>
      {run ? (
        <section aria-live="polite" className={`${ui.card} flex flex-col gap-4 p-4`}>
          <h2 className="text-sm font-semibold">{run.from_url} — {t.status[run.status]}{run.origin_version ? ` (${run.origin_version})` : ''}</h2>
          <Progress run={run} />
          <Report run={run} />
        </section>
      ) : <p className="text-sm text-slate-500">{t.none}</p>}
      <PastRuns runs={runs.filter((r) => r.id !== latest?.id)} />
    </div>
  )
}

export default island('ImportRunner', ImportRunner)
