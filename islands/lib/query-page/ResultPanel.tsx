import { lazy, Suspense, useEffect, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { DateFormats, QueryResult } from '../editor/types.ts'
import { timeAgo } from '../query-list.ts'
import { ChartView } from './ChartView.tsx'
import type { PageVisualization, PrerenderedCharts } from './types.ts'

const t = queryTexts.queryPage
const e = queryTexts.editor
const RELATIVE_TIME_REFRESH_MS = 30_000 // spec 2 §9
const DOWNLOADS = [['CSV', 'csv'], ['TSV', 'tsv'], ['Excel', 'xlsx']] as const

const isTable = (v: PageVisualization) => v.type.toUpperCase() === 'TABLE'

// The grid (with its virtual scroller) is a tenth of the page's script: a page opening on a chart does without it.
const loadGrid = () => import('../editor/ResultsTable.tsx')
const ResultsGrid = lazy(() => loadGrid().then((m) => ({ default: m.ResultsGrid })))

/**
 * The chosen tab's content: the Table in the editor's grid, anything else drawn by ChartView, and the metadata bar
 * (rows, runtime, age, downloads). Charts the server drew stay in the page, hidden while another tab shows, so
 * coming back to one (or arriving through a link to it) needs no drawing.
 */
export function ResultPanel({ queryId, tabs, current, result, pendingResultId, prerendered, formats }: {
  queryId: number
  /** A stored result the page is about to show (loaded by its script), when there is one. */
  pendingResultId: number | null
  tabs: PageVisualization[]
  current: PageVisualization
  result: QueryResult | null
  prerendered: PrerenderedCharts | null | undefined
  formats: DateFormats
}): JSX.Element {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    setNow(Date.now())
    const tick = setInterval(() => setNow(Date.now()), RELATIVE_TIME_REFRESH_MS)
    return () => clearInterval(tick)
  }, [result])
  // on a Table tab, fetched alongside the result rather than after it; a moment later, as a link to a chart turns
  // the first render's Table tab into that chart before then
  const onTable = isTable(current)
  useEffect(() => {
    if (!onTable) return
    const soon = setTimeout(() => void loadGrid(), 0)
    return () => clearTimeout(soon)
  }, [onTable])
  const kept = tabs.filter((v) => prerendered?.ids.includes(v.id) && !isTable(v))
  const showsKept = kept.some((v) => v.id === current.id)

  return (
    <div role="tabpanel" aria-label={current.name} className="mt-3 flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {kept.map((v) => <ChartView key={v.id} vis={v} result={result} prerendered={prerendered} hidden={v.id !== current.id} />)}
      {showsKept ? null : !result && pendingResultId ? (
        <div className="flex min-h-48 flex-1 flex-col items-center justify-center gap-2 p-6 text-center text-sm text-slate-500 dark:text-slate-400" data-result-pending>
          <p>{e.loadingResults}</p>
          {/* the page's script loads the stored result; without it, the result is still a download away */}
          <noscript>
            <p>{t.noScriptResult}{' '}
              {DOWNLOADS.map(([label, ext]) => (
                <a key={ext} href={`/api/queries/${queryId}/results/${pendingResultId}.${ext}`} download className="mx-1 font-medium text-indigo-700 underline dark:text-indigo-300">{label}</a>
              ))}
            </p>
          </noscript>
        </div>
      ) : !result ? (
        <div className="flex min-h-48 flex-1 flex-col items-center justify-center gap-1 p-6 text-center text-sm text-slate-500 dark:text-slate-400">
          <svg viewBox="0 0 24 24" className="mb-1 h-6 w-6 text-slate-400" fill="none" stroke="currentColor" strokeWidth={1.6} aria-hidden="true"><path d="M3 5h18v14H3zM3 10h18M9 10v9M15 10v9" /></svg>
          <p className="font-medium text-slate-700 dark:text-slate-300">{t.noResult}</p>
          <p>{t.noResultRun}</p>
        </div>
      ) : onTable ? (
        <>
          {result.data.truncated && <p className="shrink-0 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">{e.truncated}</p>}
          <div className="flex min-h-0 flex-1 flex-col"><Suspense fallback={null}><ResultsGrid result={result} formats={formats} /></Suspense></div>
        </>
      ) : (
        <ChartView key={current.id} vis={current} result={result} />
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
  )
}
