import type { JSX } from 'react'
import { dashboardTexts as t } from '../../../src/shared/dashboard-texts.ts'
import { timeAgo } from '../query-list.ts'
import type { WidgetRun } from './model.ts'
import type { ChartWidget } from './types.ts'
import { WidgetMenu } from './WidgetMenu.tsx'

/**
 * A widget card's heading: the query (linked for those who may view it) and the widget's title, then "Refreshing…"
 * or when its result was made, and, once hydrated on a signed-in page, its menu.
 */
export function WidgetHeader({ w, run, clock, menu, exportHref, onRefresh, onExpand }: {
  w: ChartWidget
  run: WidgetRun
  clock: number
  /** Whether the menu shows: not before hydration, nor on a public page. */
  menu: boolean
  exportHref: () => string
  onRefresh: () => void
  onExpand: () => void
}): JSX.Element {
  return (
    <header className="flex items-baseline justify-between gap-3 border-b border-slate-100 px-4 py-2 dark:border-slate-800">
      <h2 id={`widget-${w.id}-title`} className="min-w-0 truncate text-sm font-semibold text-slate-900 dark:text-slate-100">
        {w.canViewQuery ? <a href={`/queries/${w.queryId}`} className="hover:underline" title={t.openQuery(w.queryName)}>{w.queryName}</a> : w.queryName}
        {w.title !== w.queryName && <span className="font-normal text-slate-500 dark:text-slate-400"> · {w.title}</span>}
      </h2>
      <span className="flex shrink-0 items-baseline gap-2">
        {run.busy
          ? <span role="status" className="text-xs text-slate-500 dark:text-slate-400">{t.refreshing}</span>
          : run.retrievedAt && <time dateTime={run.retrievedAt} className="text-xs text-slate-500 dark:text-slate-400">{t.updated(timeAgo(run.retrievedAt, clock))}</time>}
        {menu && (
          <WidgetMenu name={w.title} queryId={w.queryId} resultId={run.resultId} canRefresh canViewQuery={w.canViewQuery}
            exportHref={exportHref()} onRefresh={onRefresh} onExpand={onExpand} />
        )}
      </span>
    </header>
  )
}
