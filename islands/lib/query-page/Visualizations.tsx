import { useEffect, useState, type JSX, type ReactNode } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ResultsGrid } from '../editor/ResultsTable.tsx'
import type { DateFormats, QueryResult } from '../editor/types.ts'
import { timeAgo } from '../query-list.ts'
import { ui } from '../ui.ts'
import { ChartView } from './ChartView.tsx'
import type { PageVisualization } from './types.ts'

const t = queryTexts.queryPage
const e = queryTexts.editor
const RELATIVE_TIME_REFRESH_MS = 30_000 // spec 2 §9
const DOWNLOADS = [['CSV', 'csv'], ['TSV', 'tsv'], ['Excel', 'xlsx']] as const

const tabClass = (active: boolean) =>
  `-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium ${active ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300' : 'border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200'}`

/** A button for a feature that is not here yet: present, disabled, and saying why. */
const Later = ({ label, reason, children }: { label: string; reason: string; children: ReactNode }) => (
  <span title={reason} className="inline-flex">
    <button type="button" disabled aria-description={reason} className={`${ui.secondaryButton} min-h-8 px-3 py-1 text-xs`}>{children}{label}</button>
  </span>
)

/**
 * The result area of the query page (spec 2 §2 "Visualization tabs"): a tab per visualization, a Table tab when
 * there is none; the Table shows the result in the editor's grid, with the metadata bar (rows, runtime, age,
 * downloads). Other kinds are drawn from the same result by the shared renderer (ChartView).
 */
export function Visualizations({ queryId, visualizations, result, isSafe, formats, status }: {
  queryId: number
  visualizations: PageVisualization[]
  result: QueryResult | null
  isSafe: boolean
  formats: DateFormats
  /** The execution banner, shown above the result. */
  status: ReactNode
}): JSX.Element {
  const tabs = visualizations.length ? visualizations : [{ id: 0, type: 'TABLE', name: t.table, options: {} }]
  const [active, setActive] = useState(tabs[0].id)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    setNow(Date.now())
    const tick = setInterval(() => setNow(Date.now()), RELATIVE_TIME_REFRESH_MS)
    return () => clearInterval(tick)
  }, [result])
  const current = tabs.find((v) => v.id === active) ?? tabs[0]

  return (
    <section className="flex min-h-0 flex-1 flex-col" aria-label={t.visualizations}>
      <div className="flex flex-col gap-2 border-b border-slate-200 sm:flex-row sm:items-end dark:border-slate-800">
        <div role="tablist" aria-label={t.visualizations} className="-mb-px flex min-w-0 flex-1 items-end gap-1 overflow-x-auto">
          {tabs.map((v) => (
            <button key={v.id} type="button" role="tab" aria-selected={v.id === current.id} className={tabClass(v.id === current.id)} onClick={() => setActive(v.id)}>
              {v.name}
            </button>
          ))}
        </div>
        {/* disabled placeholders help on a desk; on a phone they would only push the result down */}
        <div className="hidden flex-wrap gap-2 pb-2 sm:flex">
          <Later label={t.addVisualization} reason={t.addVisualizationLater}>
            <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
          </Later>
          <Later label={t.addToDashboard} reason={t.addToDashboardLater}>{null}</Later>
          <Later label={t.embed} reason={isSafe ? t.embedLater : t.embedUnsafe}>{null}</Later>
        </div>
      </div>
      <div className="mt-3">{status}</div>
      <div role="tabpanel" className="mt-3 flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        {!result ? (
          <div className="flex min-h-48 flex-1 flex-col items-center justify-center gap-1 p-6 text-center text-sm text-slate-500 dark:text-slate-400">
            <svg viewBox="0 0 24 24" className="mb-1 h-6 w-6 text-slate-400" fill="none" stroke="currentColor" strokeWidth={1.6} aria-hidden="true"><path d="M3 5h18v14H3zM3 10h18M9 10v9M15 10v9" /></svg>
            <p className="font-medium text-slate-700 dark:text-slate-300">{t.noResult}</p>
            <p>{t.noResultRun}</p>
          </div>
        ) : current.type.toUpperCase() === 'TABLE' ? (
          <>
            {result.data.truncated && <p className="shrink-0 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">{e.truncated}</p>}
            <div className="flex min-h-0 flex-1 flex-col"><ResultsGrid result={result} formats={formats} /></div>
          </>
        ) : (
          <ChartView vis={current} result={result} />
        )}
        {result && (
          <div className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-t border-slate-200 bg-slate-50 px-3 py-1.5 text-xs text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400" data-result-meta>
            <span className="font-medium text-slate-800 dark:text-slate-200" data-row-count>{e.rows(result.data.rows.length)}</span>
            <span>{e.runtime(result.runtime)}</span>
            <span title={result.retrieved_at}>{e.updated(timeAgo(result.retrieved_at, now))}</span>
            <span className="ml-auto flex items-center gap-1">
              <span className="sr-only sm:not-sr-only">{e.download}:</span>
              {DOWNLOADS.map(([label, ext]) => (
                <a key={ext} href={`/api/queries/${queryId}/results/${result.id}.${ext}`} download aria-label={e.downloadAs(label)}
                  className="rounded px-1.5 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800">{label}</a>
              ))}
            </span>
          </div>
        )}
      </div>
    </section>
  )
}
