import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties, type JSX } from 'react'
import { dashboardTexts as t } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import type { ParameterValue } from '../src/shared/parameters/index.ts'
import { searchParamsFromValues } from '../src/shared/parameters/url.ts'
import { writeSelection } from '../src/visualizations/filter-choices.ts'
import type { Filter } from '../src/visualizations/filters.ts'
import { onDashboardRefresh } from './lib/bus.ts'
import { latestRefresh } from './lib/dashboard-widget/refresh-requests.ts'
import { cardData, drawingMarkup, type ChartWidget, type ServerDrawing } from './lib/dashboard-widget/types.ts'
import { useWidgetFilters } from './lib/dashboard-widget/use-widget-filters.ts'
import { useFiltersMerged } from './lib/dashboard-filters/use-filters-merged.ts'
import { useWidgetParameters } from './lib/dashboard-widget/use-widget-parameters.ts'
import { useWidgetRun } from './lib/dashboard-widget/use-widget-run.ts'
import { WidgetFilters, WidgetParameters } from './lib/dashboard-widget/WidgetControls.tsx'
import { WidgetHeader } from './lib/dashboard-widget/WidgetHeader.tsx'
import { ui } from './lib/ui.ts'

const ExpandedWidget = lazy(() => import('./lib/dashboard-widget/ExpandedWidget.tsx'))

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
 * those change. Its state is a pure model (lib/dashboard-widget/model.ts).
 */
function DashboardWidget({ widget: w, drawing, now, style, filtersMerged: mergedOnPage = false, publicView = false }: DashboardWidgetProps): JSX.Element {
  const filtersMerged = useFiltersMerged(mergedOnPage)
  const [serverHtml] = useState(() => drawingMarkup(w.id, drawing))
  const selection = useRef<Record<string, unknown[]>>({})
  const { state, dispatch, run, refresh, redraw } = useWidgetRun(w.id, w.queryId, { resultId: w.resultId, retrievedAt: w.retrievedAt, now }, () => selection.current)
  // a filter choice is drawn again by the server, from the result the card shows
  const filtering = useWidgetFilters(w, filtersMerged, run.drawing?.filters ?? null, redraw)
  selection.current = filtering.selection
  const { own, ownValues, ready } = useWidgetParameters(w, refresh)
  const { live } = state

  useEffect(() => {
    void dispatch({ type: 'hydrated' })
    // "Updated 5 minutes ago" keeps counting on a screen left open
    const ticker = setInterval(() => void dispatch({ type: 'tick', now: Date.now() }), 60_000)
    return () => clearInterval(ticker)
  }, [dispatch])
  useEffect(() => {
    // a refresh asked before this widget hydrated (it was out of sight) runs now; one with parameters waits for their values
    const missed = latestRefresh()
    if (missed && ready()) void refresh(missed.maxAge)
    return onDashboardRefresh(({ maxAge }) => ready() && void refresh(maxAge))
  }, [ready, refresh])
  useEffect(() => {
    if (run.retrievedAt !== w.retrievedAt) void dispatch({ type: 'tick', now: Date.now() })
  }, [run.retrievedAt, w.retrievedAt, dispatch])

  // the last drawing stays up while the next one is made; a result that cannot be drawn replaces it with a note
  const redrawn = run.drawing
  const markup = redrawn ? redrawn.drawing ?? null : serverHtml
  const note = redrawn?.note ? notes[redrawn.note] : w.note ? notes[w.note] : ''
  return (
    <article className={card} style={style} {...cardData(w)} aria-labelledby={`widget-${w.id}-title`} aria-busy={run.busy || undefined}>
      <WidgetHeader w={w} run={run} clock={state.clock} menu={live && !publicView}
        exportHref={() => exportHref(w, JSON.parse(state.sent), run.drawing?.filters ?? w.filters, selection.current)}
        onRefresh={() => void refresh(0)} onExpand={() => void dispatch({ type: 'expand' })} />
      {live && own.length > 0 && <WidgetParameters w={w} own={own} values={ownValues} />}
      {live && filtering.filters.length > 0 && !filtersMerged && (
        <WidgetFilters w={w} filters={filtering.filters} selection={filtering.selection} onChange={filtering.choose} />
      )}
      {run.error !== null
        ? <p role="alert" className="flex flex-1 items-center justify-center p-4 text-center text-sm text-red-700 dark:text-red-300">{t.errorRunning(run.error)}</p>
        : markup !== null
          ? <div className={w.autoHeight ? 'flex-none p-2 [&>*]:max-h-none!' : 'min-h-0 flex-1 overflow-auto p-2 [&>svg]:max-h-full'} data-widget-drawing={w.id} data-drawn-by={redrawn ? 'redrawn' : 'server'} dangerouslySetInnerHTML={{ __html: markup }} />
          : <p className="flex flex-1 items-center justify-center p-4 text-center text-sm text-slate-500 dark:text-slate-400">{note}</p>}
      {state.expanded && (
        <Suspense fallback={null}>
          <ExpandedWidget widget={w} markup={markup} note={run.error !== null ? t.errorRunning(run.error) : note} values={state.expanded.values}
            filters={filtering.filters.length ? filtering.selection : undefined} onClose={() => void dispatch({ type: 'collapse' })} />
        </Suspense>
      )}
    </article>
  )
}

export default island('DashboardWidget', DashboardWidget, { hydrate: 'visible' })
