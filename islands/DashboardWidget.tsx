import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties, type JSX } from 'react'
import { dashboardTexts as t } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import type { ParameterValue } from '../src/shared/parameters/index.ts'
import { searchParamsFromValues } from '../src/shared/parameters/url.ts'
import { writeSelection } from '../src/visualizations/filter-choices.ts'
import type { Filter } from '../src/visualizations/filters.ts'
import { applyWidgetParameters, onDashboardRefresh } from './lib/bus.ts'
import { latestRefresh } from './lib/dashboard-widget/refresh-requests.ts'
import { cardData, drawingMarkup, type ChartWidget, type ServerDrawing } from './lib/dashboard-widget/types.ts'
import { useWidgetFilters } from './lib/dashboard-widget/use-widget-filters.ts'
import { useFiltersMerged } from './lib/dashboard-filters/use-filters-merged.ts'
import { useWidgetParameters } from './lib/dashboard-widget/use-widget-parameters.ts'
import { useWidgetRun } from './lib/dashboard-widget/use-widget-run.ts'
import { WidgetMenu } from './lib/dashboard-widget/WidgetMenu.tsx'
import { timeAgo } from './lib/query-list.ts'
import { ui } from './lib/ui.ts'

const ExpandedWidget = lazy(() => import('./lib/dashboard-widget/ExpandedWidget.tsx'))
// loaded only by a widget whose rows define result filters
const FilterControls = lazy(() => import('./lib/dashboard-filters/FilterControls.tsx'))
const ParameterInputs = lazy(() => import('./lib/parameters/ParameterInputs.tsx').then((m) => ({ default: m.ParameterInputs })))

export interface DashboardWidgetProps {
  widget: ChartWidget
  /** The server's drawing (its markup stays out of the props' JSON), or null when it drew none. */
  drawing: ServerDrawing | null
  /** The server's clock when it drew the page, so "Updated …" reads the same once hydrated. */
  now: number
  /** The card's cell on the grid (src/ui/dashboard/Widget.tsx). */
  style: CSSProperties
  /** The dashboard's filters are merged into its panel above the grid, so the card shows none of its own. */
  filtersMerged?: boolean
  /** On a public dashboard: read-only, no menu (spec 2 §2). */
  publicView?: boolean
}

/** The chart as a picture (`GET api/visualizations/{id}/export.png`) with the values and filter choice the card shows. */
function exportHref(w: ChartWidget, values: Record<string, unknown>, filters: Filter[], chosen: Record<string, unknown[]>): string {
  const search = writeSelection(searchParamsFromValues(w.parameters, values as Record<string, ParameterValue>), filters, chosen)
  const query = search.toString()
  return `/api/visualizations/${w.visualization.id}/export.png${query ? `?${query}` : ''}`
}

const card = `${ui.card} dashboard-widget flex min-h-0 flex-col overflow-hidden`
const notes = { 'never-run': t.neverRun, 'too-large': t.tooLarge, 'cannot-draw': t.cannotDraw, 'has-parameters': t.hasParameters }

/**
 * A chart widget of a dashboard. The server draws it whole (the chart included), so it reads without script; it
 * hydrates only when scrolled near (src/shared/island.tsx 'visible'), and then offers its menu (expand, downloads,
 * refresh, the query), follows the dashboard's Refresh (`sightline:dashboard-refresh`) and redraws with each new
 * result. A failed run says 'Error running query: …' (spec 2 §8). Queries with parameters run once hydrated, with the
 * values their mappings give (the dashboard's, the widget's own shown on its card, or fixed ones), and again when
 * those change.
 */
function DashboardWidget({ widget: w, drawing, now, style, filtersMerged: mergedOnPage = false, publicView = false }: DashboardWidgetProps): JSX.Element {
  const filtersMerged = useFiltersMerged(mergedOnPage)
  const [serverHtml] = useState(() => drawingMarkup(w.id, drawing))
  const selection = useRef<Record<string, unknown[]>>({})
  const { run, refresh, redraw, values } = useWidgetRun(w.id, w.queryId, { resultId: w.resultId, retrievedAt: w.retrievedAt }, () => selection.current)
  // a filter choice is drawn again by the server, from the result the card shows
  const filtering = useWidgetFilters(w, filtersMerged, run.drawing?.filters ?? null, redraw)
  selection.current = filtering.selection
  const [live, setLive] = useState(false)
  const [expanded, setExpanded] = useState<{ values: Record<string, unknown> } | null>(null)
  const [clock, setClock] = useState(now)
  const { own, ownValues, ready } = useWidgetParameters(w, refresh)

  useEffect(() => {
    setLive(true)
    // "Updated 5 minutes ago" keeps counting on a screen left open
    const ticker = setInterval(() => setClock(Date.now()), 60_000)
    return () => clearInterval(ticker)
  }, [])
  useEffect(() => {
    // a refresh asked before this widget hydrated (it was out of sight) runs now; one with parameters waits for their values
    const missed = latestRefresh()
    if (missed && ready()) void refresh(missed.maxAge)
    return onDashboardRefresh(({ maxAge }) => ready() && void refresh(maxAge))
  }, [ready, refresh])
  useEffect(() => {
    if (run.retrievedAt !== w.retrievedAt) setClock(Date.now())
  }, [run.retrievedAt, w.retrievedAt])

  // the last drawing stays up while the next one is made; a result that cannot be drawn replaces it with a note
  const redrawn = run.drawing
  const drawn = redrawn?.drawing ?? null
  const markup = redrawn ? drawn : serverHtml
  const note = redrawn?.note ? notes[redrawn.note] : w.note ? notes[w.note] : ''
  return (
    <article className={card} style={style} {...cardData(w)} aria-labelledby={`widget-${w.id}-title`} aria-busy={run.busy || undefined}>
      <header className="flex items-baseline justify-between gap-3 border-b border-slate-100 px-4 py-2 dark:border-slate-800">
        <h2 id={`widget-${w.id}-title`} className="min-w-0 truncate text-sm font-semibold text-slate-900 dark:text-slate-100">
          {w.canViewQuery ? <a href={`/queries/${w.queryId}`} className="hover:underline" title={t.openQuery(w.queryName)}>{w.queryName}</a> : w.queryName}
          {w.title !== w.queryName && <span className="font-normal text-slate-500 dark:text-slate-400"> · {w.title}</span>}
        </h2>
        <span className="flex shrink-0 items-baseline gap-2">
          {run.busy
            ? <span role="status" className="text-xs text-slate-500 dark:text-slate-400">{t.refreshing}</span>
            : run.retrievedAt && <time dateTime={run.retrievedAt} className="text-xs text-slate-500 dark:text-slate-400">{t.updated(timeAgo(run.retrievedAt, clock))}</time>}
          {live && !publicView && (
            <WidgetMenu name={w.title} queryId={w.queryId} resultId={run.resultId} canRefresh canViewQuery={w.canViewQuery}
              exportHref={exportHref(w, values(), run.drawing?.filters ?? w.filters, selection.current)}
              onRefresh={() => void refresh(0)}
              onExpand={() => setExpanded({ values: values() })} />
          )}
        </span>
      </header>
      {live && own.length > 0 && (
        <div role="group" aria-label={t.parameters.widgetPanel(w.title)} className="border-b border-slate-100 px-4 py-2 dark:border-slate-800" data-widget-parameters>
          <Suspense fallback={null}>
            <ParameterInputs definitions={own} values={ownValues} queryId={w.queryId}
              onApply={(values: Record<string, ParameterValue>) => applyWidgetParameters({ widgetId: w.id, values })} />
          </Suspense>
        </div>
      )}
      {live && filtering.filters.length > 0 && !filtersMerged && (
        <div role="group" aria-label={t.filters.widgetPanel(w.title)} className="border-b border-slate-100 px-4 py-2 dark:border-slate-800" data-widget-filters>
          <Suspense fallback={null}>
            <FilterControls filters={filtering.filters} selection={filtering.selection} onChange={filtering.choose} />
          </Suspense>
        </div>
      )}
      {run.error !== null
        ? <p role="alert" className="flex flex-1 items-center justify-center p-4 text-center text-sm text-red-700 dark:text-red-300">{t.errorRunning(run.error)}</p>
        : markup !== null
          ? <div className={w.autoHeight ? 'flex-none p-2 [&>*]:max-h-none!' : 'min-h-0 flex-1 overflow-auto p-2 [&>svg]:max-h-full'} data-widget-drawing={w.id} data-drawn-by={redrawn ? 'redrawn' : 'server'} dangerouslySetInnerHTML={{ __html: markup }} />
          : <p className="flex flex-1 items-center justify-center p-4 text-center text-sm text-slate-500 dark:text-slate-400">{note}</p>}
      {expanded && (
        <Suspense fallback={null}>
          <ExpandedWidget widget={w} markup={markup} note={run.error !== null ? t.errorRunning(run.error) : note} values={expanded.values}
            filters={filtering.filters.length ? filtering.selection : undefined} onClose={() => setExpanded(null)} />
        </Suspense>
      )}
    </article>
  )
}

export default island('DashboardWidget', DashboardWidget, { hydrate: 'visible' })
