import { useEffect, useMemo, useRef, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { FilterSelection } from '../../../src/visualizations/filter-choices.ts'
import type { QueryResult } from '../editor/types.ts'
import type { PageVisualization, PrerenderedCharts } from './types.ts'
import { useChartTooltip } from './use-chart-tooltip.ts'
import { useChartZoom } from './use-chart-zoom.ts'

interface Size {
  width: number
  height: number
}

type Drawn =
  | { html: string; size: Size; vis: PageVisualization; resultId: number | null; fromServer: boolean; xRange?: [number, number] | null; filterKey: string }
  | { error: string }

/** No filter value chosen: each filter draws its default. */
const NO_CHOICE = '{}'

/**
 * A server-drawn chart scaled into a box this much wider or taller (as a share) still reads well; beyond that it
 * is drawn again at the box's size, so a phone gets axes and labels of its own.
 */
const SCALE_TOLERANCE = { width: 0.12, height: 0.25 }

const fits = (box: Size, drawn: Size) =>
  Math.abs(box.width - drawn.width) / drawn.width <= SCALE_TOLERANCE.width &&
  Math.abs(box.height - drawn.height) / drawn.height <= SCALE_TOLERANCE.height

/**
 * The server's markup of a chart: given directly on the server; in the browser, read back from the page being
 * hydrated, so it is not sent a second time in the island's props.
 */
function serverMarkup(vis: PageVisualization, prerendered: PrerenderedCharts | null | undefined): Drawn | null {
  if (!prerendered?.ids.includes(vis.id)) return null
  const html = prerendered.svg?.[vis.id] ?? (typeof document === 'undefined' ? undefined : document.querySelector(`[data-chart-output="${vis.id}"]`)?.innerHTML)
  if (html === undefined) return null
  // the server draws with each filter's default, as no choice is made yet
  return { html, size: { width: prerendered.width, height: prerendered.height }, vis, resultId: prerendered.resultId, fromServer: true, filterKey: NO_CHOICE }
}

/**
 * A visualization other than the table, drawn from the shown result by the shared renderer (the same code that
 * draws it on the server). A chart the server drew is kept as it is, scaled to its box, until the box size moves
 * past the tolerance, the result changes, the visualization is edited or the viewer zooms in (a drag across a number
 * or time x axis); only then does the renderer (and its chart library) load. A hidden view keeps its markup for when
 * its tab is chosen again.
 */
export function ChartView({ vis, result, prerendered, hidden, filterSelection }: {
  vis: PageVisualization
  result: QueryResult | null
  prerendered?: PrerenderedCharts | null
  hidden?: boolean
  /** The values chosen in the result's filters (a filter not named draws its default). */
  filterSelection?: FilterSelection
}): JSX.Element {
  const filterKey = JSON.stringify(filterSelection ?? {})
  const box = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState<Size | null>(null)
  const [drawn, setDrawn] = useState<Drawn | null>(() => serverMarkup(vis, prerendered))
  const zoom = useChartZoom(box, useMemo(() => ({ vis, result }), [vis, result]))
  const tip = useChartTooltip(box)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect
      if (width === 0 || height === 0) return // hidden: nothing to measure
      setSize((s) => (s && Math.abs(s.width - width) < 2 && Math.abs(s.height - height) < 2 ? s : { width, height }))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    if (!size || !result) return
    if (drawn && 'html' in drawn && drawn.vis === vis && drawn.resultId === result.id && (drawn.xRange ?? null) === zoom.xRange && drawn.filterKey === filterKey) {
      const same = drawn.fromServer ? fits(size, drawn.size) : Math.abs(size.width - drawn.size.width) < 2 && Math.abs(size.height - drawn.size.height) < 2
      if (same) return
    }
    let live = true
    import('../../../src/visualizations/render.ts').then(({ renderVisualization }) => {
      if (!live) return
      try {
        const view = { ...(zoom.xRange ? { xRange: zoom.xRange } : {}), ...(filterSelection ? { filters: filterSelection } : {}) }
        const html = renderVisualization({ type: vis.type, options: vis.options }, { columns: result.data.columns, rows: result.data.rows }, size, { document }, view)
        setDrawn({ html, size, vis, resultId: result.id, fromServer: false, xRange: zoom.xRange, filterKey })
      } catch (error) {
        setDrawn({ error: error instanceof Error ? error.message : String(error) })
      }
    }, (error: Error) => live && setDrawn({ error: error.message }))
    return () => {
      live = false
    }
    // `drawn` is read, not watched: drawing must not trigger another drawing
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [vis, result, size, zoom.xRange, filterKey])

  const scaled = drawn && 'html' in drawn && drawn.fromServer
  // charts are drawn dark on white (as in the editor's preview); the box takes the white so none shows at the edges
  const svg = drawn && 'html' in drawn && drawn.html.startsWith('<svg')
  return (
    <div ref={box} hidden={hidden} className="relative min-h-0 flex-1 overflow-auto p-3 dark:data-svg:bg-white" data-svg={svg || undefined}
      data-visualization={vis.type} data-chart-id={vis.id}>
      {drawn && 'error' in drawn && <p role="alert" className="m-auto max-w-md p-6 text-center text-sm text-red-700 dark:text-red-300">{drawn.error}</p>}
      {zoom.band && (
        <div aria-hidden="true" className="pointer-events-none absolute inset-y-3 z-10 border-x border-indigo-500 bg-indigo-500/15" style={{ left: zoom.band.left, width: zoom.band.width }} />
      )}
      {tip && (
        <div role="tooltip" className="pointer-events-none absolute z-20 max-w-xs whitespace-pre-line rounded-md bg-slate-900/95 px-2 py-1 text-xs leading-snug text-white shadow-lg"
          style={{ left: tip.left, top: tip.top }}>{tip.text}</div>
      )}
      {zoom.xRange && (
        <button type="button" onClick={zoom.reset} className="absolute right-4 top-4 z-10 rounded-md border border-slate-300 bg-white/95 px-2 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50">
          {queryTexts.queryPage.resetZoom}
        </button>
      )}
      {/* the renderer builds DOM nodes and serialises them, so text from the result arrives escaped */}
      {drawn && 'html' in drawn && (
        <div data-chart-output={vis.id} data-drawn-by={drawn.fromServer ? 'server' : 'browser'}
          className={`h-full w-full ${scaled ? '[&>svg]:h-full [&>svg]:w-full' : ''}`} dangerouslySetInnerHTML={{ __html: drawn.html }} />
      )}
    </div>
  )
}
