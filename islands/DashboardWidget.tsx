import { lazy, Suspense, useCallback, useEffect, useRef, useState, type CSSProperties, type JSX } from 'react'
import { dashboardTexts as t } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import type { ParameterValue } from '../src/shared/parameters/index.ts'
import { applyWidgetParameters, onDashboardRefresh } from './lib/bus.ts'
import { useBrowserDrawing } from './lib/dashboard-widget/draw.ts'
import { latestRefresh } from './lib/dashboard-widget/refresh-requests.ts'
import { drawingMarkup, type ChartWidget, type ServerDrawing } from './lib/dashboard-widget/types.ts'
import { useWidgetFilters } from './lib/dashboard-widget/use-widget-filters.ts'
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
function DashboardWidget({ widget: w, drawing, now, style, filtersMerged = false }: DashboardWidgetProps): JSX.Element {
  const [serverHtml] = useState(() => drawingMarkup(w.id, drawing))
  const { run, refresh, load } = useWidgetRun(w.queryId, { resultId: w.resultId, retrievedAt: w.retrievedAt })
  const body = useRef<HTMLDivElement>(null)
  // a filter redraws from the rows in the browser: the stored result the server drew is loaded the first time
  const needRows = useCallback(() => {
    if (run.resultId !== null) void load(run.resultId)
  }, [run.resultId, load])
  const filtering = useWidgetFilters(w, filtersMerged, needRows)
  const chosen = w.filters.length ? filtering.selection : undefined
  const browser = useBrowserDrawing(body, w.visualization, run.result, chosen)
  const [live, setLive] = useState(false)
  const [expanded, setExpanded] = useState(false)
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
  const drawn = browser && 'html' in browser ? browser.html : null
  const markup = browser && !drawn ? null : drawn ?? serverHtml
  const note = browser && 'tooLarge' in browser ? t.tooLarge : browser && 'error' in browser ? t.cannotDraw : w.note ? notes[w.note] : ''
  return (
    <article className={card} style={style} data-widget-id={w.id} aria-labelledby={`widget-${w.id}-title`} aria-busy={run.busy || undefined}>
      <header className="flex items-baseline justify-between gap-3 border-b border-slate-100 px-4 py-2 dark:border-slate-800">
        <h2 id={`widget-${w.id}-title`} className="min-w-0 truncate text-sm font-semibold text-slate-900 dark:text-slate-100">
          {w.canViewQuery ? <a href={`/queries/${w.queryId}`} className="hover:underline" title={t.openQuery(w.queryName)}>{w.queryName}</a> : w.queryName}
          {w.title !== w.queryName && <span className="font-normal text-slate-500 dark:text-slate-400"> · {w.title}</span>}
        </h2>
        <span className="flex shrink-0 items-baseline gap-2">
          {run.busy
            ? <span role="status" className="text-xs text-slate-500 dark:text-slate-400">{t.refreshing}</span>
            : run.retrievedAt && <time dateTime={run.retrievedAt} className="text-xs text-slate-500 dark:text-slate-400">{t.updated(timeAgo(run.retrievedAt, clock))}</time>}
          {live && (
            <WidgetMenu name={w.title} queryId={w.queryId} resultId={run.resultId} canRefresh canViewQuery={w.canViewQuery}
              onRefresh={() => void refresh(0)}
              onExpand={() => {
                if (run.resultId !== null) void load(run.resultId)
                setExpanded(true)
              }} />
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
      {live && w.filters.length > 0 && !filtersMerged && (
        <div role="group" aria-label={t.filters.widgetPanel(w.title)} className="border-b border-slate-100 px-4 py-2 dark:border-slate-800" data-widget-filters>
          <Suspense fallback={null}>
            <FilterControls filters={w.filters} selection={filtering.selection} onChange={filtering.choose} />
          </Suspense>
        </div>
      )}
      {run.error !== null
        ? <p ref={body} role="alert" className="flex flex-1 items-center justify-center p-4 text-center text-sm text-red-700 dark:text-red-300">{t.errorRunning(run.error)}</p>
        : markup !== null
          ? <div ref={body} className="min-h-0 flex-1 overflow-auto p-2" data-widget-drawing={w.id} data-drawn-by={drawn ? 'browser' : 'server'} dangerouslySetInnerHTML={{ __html: markup }} />
          : <p ref={body} className="flex flex-1 items-center justify-center p-4 text-center text-sm text-slate-500 dark:text-slate-400">{run.result && !browser ? t.drawing : note}</p>}
      {expanded && (
        <Suspense fallback={null}>
          <ExpandedWidget widget={w} markup={markup} note={run.error !== null ? t.errorRunning(run.error) : note} result={run.result} filters={chosen} onClose={() => setExpanded(false)} />
        </Suspense>
      )}
    </article>
  )
}

export default island('DashboardWidget', DashboardWidget, { hydrate: 'visible' })
