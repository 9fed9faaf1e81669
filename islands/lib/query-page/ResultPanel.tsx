import { useContext, useEffect, useState, type JSX, type ReactNode } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { preloadResultsGrid, useResultsGrid } from '../editor/grid-loader.ts'
import { HiddenResult } from '../editor/HiddenResult.tsx'
import type { DateFormats, QueryResult } from '../editor/types.ts'
import { timeAgo } from '../query-list.ts'
import { ChartViewSlot } from './chart-view-slot.ts'
import { useFilteredResult, type ResultFilters } from './result-filters.tsx'
import type { PageVisualization, PrerenderedCharts } from './types.ts'

const t = queryTexts.queryPage
const e = queryTexts.editor
const RELATIVE_TIME_REFRESH_MS = 30_000 // spec 2 §9
const DOWNLOADS = [['CSV', 'csv'], ['TSV', 'tsv'], ['Excel', 'xlsx']] as const

const isTable = (v: PageVisualization) => v.type.toUpperCase() === 'TABLE'
const NoChart = () => null
const NO_FILTERS: ResultFilters = { filters: [], selection: {}, choose: () => {} }


/**
 * The chosen tab's content: the Table in the editor's grid, anything else drawn by ChartView, and the metadata bar
 * (rows, runtime, age, downloads). Charts the server drew stay in the page, hidden while another tab shows, so
 * coming back to one (or arriving through a link to it) needs no drawing.
 */
export function ResultPanel({ queryId, tabs, current, result, filters = NO_FILTERS, pendingResultId, prerendered, formats, onShowHiddenResult, log, empty, downloadHref, preloadGrid = true }: {
  queryId: number | null
  /** A stored result the page is about to show (loaded by its script), when there is one. */
  pendingResultId: number | null
  tabs: PageVisualization[]
  current: PageVisualization
  result: QueryResult | null
  /** The result's filters and the values chosen: the table shows, and the charts draw, only the rows they keep. */
  filters?: ResultFilters
  prerendered: PrerenderedCharts | null | undefined
  formats: DateFormats
  /** Set while the last good result is held back after a failed run (see useShownResult). */
  onShowHiddenResult?: () => void
  /** The engine's log, shown in place of the tab's content when its Log tab is chosen. */
  log?: readonly string[]
  /** What shows before any result: by default, the query page's invitation to Refresh Now. */
  empty?: ReactNode
  /** Where a result downloads from: by default through the saved query (the query page's results are its own). */
  downloadHref?: (resultId: number, ext: string) => string
  /** Fetch the grid as the page opens on a Table tab (the query page's result comes as it opens); the editor's own when a run starts. */
  preloadGrid?: boolean
}): JSX.Element {
  const ChartView = useContext(ChartViewSlot) ?? NoChart
  const href = downloadHref ?? ((resultId: number, ext: string) => `/api/queries/${queryId}/results/${resultId}.${ext}`)
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
    if (!onTable || !preloadGrid) return
    const soon = setTimeout(preloadResultsGrid, 0)
    return () => clearTimeout(soon)
  }, [onTable, preloadGrid])
  const Grid = useResultsGrid(Boolean(result) && onTable)
  const rowsShown = useFilteredResult(result, filters)
  const kept = tabs.filter((v) => prerendered?.ids.includes(v.id) && !isTable(v))
  const showsKept = kept.some((v) => v.id === current.id)

  return (
    <div role="tabpanel" aria-label={log ? e.log : current.name} className="mt-3 flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {kept.map((v) => <ChartView key={v.id} vis={v} result={result} prerendered={prerendered} filterSelection={filters.selection} hidden={v.id !== current.id || Boolean(onShowHiddenResult)} />)}
      {onShowHiddenResult ? <div className="flex flex-1 flex-col p-3"><HiddenResult onShow={onShowHiddenResult} /></div> : showsKept ? null : !result && pendingResultId ? (
        <div className="flex min-h-48 flex-1 flex-col items-center justify-center gap-2 p-6 text-center text-sm text-slate-500 dark:text-slate-400" data-result-pending>
          <p>{e.loadingResults}</p>
          {/* the page's script loads the stored result; without it, the result is still a download away */}
          <noscript>
            <p>{t.noScriptResult}{' '}
              {DOWNLOADS.map(([label, ext]) => (
                <a key={ext} href={href(pendingResultId, ext)} download className="mx-1 font-medium text-indigo-700 underline dark:text-indigo-300">{label}</a>
              ))}
            </p>
          </noscript>
        </div>
      ) : !result ? (
        <div className="flex min-h-48 flex-1 flex-col items-center justify-center gap-1 p-6 text-center text-sm text-slate-500 dark:text-slate-400">
          <svg viewBox="0 0 24 24" className="mb-1 h-6 w-6 text-slate-400" fill="none" stroke="currentColor" strokeWidth={1.6} aria-hidden="true"><path d="M3 5h18v14H3zM3 10h18M9 10v9M15 10v9" /></svg>
          {empty ?? <><p className="font-medium text-slate-700 dark:text-slate-300">{t.noResult}</p><p>{t.noResultRun}</p></>}
        </div>
      ) : log ? (
        <pre className="min-h-0 flex-1 overflow-auto p-3 font-mono text-xs leading-5 text-slate-700 dark:text-slate-300">{log.join('\n')}</pre>
      ) : onTable ? (
        <>
          {result.data.truncated && <p className="shrink-0 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">{e.truncated}</p>}
          <div className="flex min-h-0 flex-1 flex-col">{Grid && rowsShown && <Grid result={rowsShown} formats={formats} />}</div>
        </>
      ) : (
        <ChartView key={current.id} vis={current} result={result} filterSelection={filters.selection} />
      )}
      {result && (
        <div className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-t border-slate-200 bg-slate-50 px-3 py-1.5 text-xs text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400" data-result-meta>
          <span className="font-medium text-slate-800 dark:text-slate-200" data-row-count>{e.rows((rowsShown ?? result).data.rows.length)}</span>
          <span>{e.runtime(result.runtime)}</span>
          <span title={result.retrieved_at}>{e.updated(timeAgo(result.retrieved_at, now))}</span>
          <span className="ml-auto flex items-center gap-1">
            <span className="sr-only sm:not-sr-only">{e.download}:</span>
            {DOWNLOADS.map(([label, ext]) => (
              <a key={ext} href={href(result.id, ext)} download aria-label={e.downloadAs(label)}
                className="rounded px-1.5 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800">{label}</a>
            ))}
          </span>
        </div>
      )}
    </div>
  )
}
