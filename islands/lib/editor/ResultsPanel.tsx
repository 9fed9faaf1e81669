import { useEffect, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { timeAgo } from '../query-list.ts'
import type { DateFormats, QueryResult } from './types.ts'

const t = queryTexts.editor
// The grid and its virtualiser are needed only once a result arrives, so they stay out of the editor's first
// download (its budget is 250 KB gzipped); the editor starts loading them as an execution starts.
// Not React.lazy: that suspends even when the module is already here, and React holds a suspended reveal back
// for up to 300 ms, which would show in the time from a result's arrival to its rows.
type GridModule = typeof import('./ResultsTable.tsx')
let gridModule: GridModule | null = null
const loadGrid = () => import('./ResultsTable.tsx').then((m) => (gridModule = m))
export const preloadResultsGrid = () => void loadGrid()
const RELATIVE_TIME_REFRESH_MS = 30_000 // spec 1 §9
const DOWNLOADS = [['CSV', 'csv'], ['TSV', 'tsv'], ['Excel', 'xlsx']] as const

const tabClass = (active: boolean) =>
  `-mb-px border-b-2 px-3 py-2 text-sm font-medium ${active ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300' : 'border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200'}`

/** The result of the last execution: Results and Log tabs, then a bar with the row count, runtime, age and downloads. */
export function ResultsPanel({ result, formats }: { result: QueryResult | null; formats: DateFormats }): JSX.Element {
  const [tab, setTab] = useState<'results' | 'log'>('results')
  const [grid, setGrid] = useState(() => gridModule)
  useEffect(() => {
    if (result && !grid) void loadGrid().then(setGrid)
  }, [result, grid])
  // preloaded by the time most results arrive: then the rows render in the same pass as the result
  const Grid = (grid ?? gridModule)?.ResultsGrid
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    setNow(Date.now())
    const tick = setInterval(() => setNow(Date.now()), RELATIVE_TIME_REFRESH_MS)
    return () => clearInterval(tick)
  }, [result])
  const log = result?.data.log ?? []
  useEffect(() => {
    if (log.length === 0) setTab('results')
  }, [log.length])

  if (!result) {
    return (
      <div className="flex min-h-40 flex-1 flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
        <svg viewBox="0 0 24 24" className="h-6 w-6 text-slate-400" fill="none" stroke="currentColor" strokeWidth={1.6} aria-hidden="true"><path d="M3 5h18v14H3zM3 10h18M9 10v9M15 10v9" /></svg>
        {t.noResultYet}
      </div>
    )
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div role="tablist" aria-label={t.results} className="flex shrink-0 items-end gap-1 border-b border-slate-200 px-2 dark:border-slate-800">
        <button type="button" role="tab" aria-selected={tab === 'results'} className={tabClass(tab === 'results')} onClick={() => setTab('results')}>{t.results}</button>
        {log.length > 0 && <button type="button" role="tab" aria-selected={tab === 'log'} className={tabClass(tab === 'log')} onClick={() => setTab('log')}>{t.log}</button>}
      </div>
      {result.data.truncated && (
        <p className="shrink-0 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">{t.truncated}</p>
      )}
      <div role="tabpanel" className="flex min-h-0 flex-1 flex-col">
        {tab === 'results'
          ? Grid && <Grid result={result} formats={formats} />
          : <pre className="min-h-0 flex-1 overflow-auto p-3 font-mono text-xs leading-5 text-slate-700 dark:text-slate-300">{log.join('\n')}</pre>}
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-t border-slate-200 bg-slate-50 px-3 py-1.5 text-xs text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400">
        <span className="font-medium text-slate-800 dark:text-slate-200" data-row-count>{t.rows(result.data.rows.length)}</span>
        <span>{t.runtime(result.runtime)}</span>
        <span title={result.retrieved_at}>{t.updated(timeAgo(result.retrieved_at, now))}</span>
        <details className="relative ml-auto">
          <summary className="flex cursor-pointer list-none items-center gap-1 rounded px-2 py-1 font-medium text-slate-700 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800">
            <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M12 4v11m0 0 4-4m-4 4-4-4M5 20h14" /></svg>
            {t.download}
          </summary>
          <ul className="absolute right-0 bottom-full z-20 mb-1 w-36 rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-800">
            {DOWNLOADS.map(([label, ext]) => (
              <li key={ext}>
                <a href={`/api/query_results/${result.id}.${ext}`} download aria-label={t.downloadAs(label)}
                  className="block px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700">{label}</a>
              </li>
            ))}
          </ul>
        </details>
      </div>
    </div>
  )
}
