import { useEffect, useState, type RefObject } from 'react'
import type { QueryResult } from '../editor/types.ts'
import type { ChartWidget } from './types.ts'

/** Results longer than this are not drawn on a dashboard, in the browser as on the server (src/dashboards/view.ts). */
export const MAX_ROWS_DRAWN = 5000

export type Drawing = { html: string; resultId: number } | { error: string } | { tooLarge: true }

/**
 * The chart drawn in the browser from a result, at the size of `box`, by the renderer the server uses (loaded on
 * demand, so a dashboard nobody refreshes never downloads it), with the result filters' chosen values. Null until
 * there is a result to draw and while it loads: the caller keeps showing what it had.
 */
export function useBrowserDrawing(box: RefObject<HTMLElement | null>, vis: ChartWidget['visualization'], result: QueryResult | null, filters?: Record<string, unknown[]>): Drawing | null {
  const [drawing, setDrawing] = useState<Drawing | null>(null)
  useEffect(() => {
    if (!result) return
    if (result.data.rows.length > MAX_ROWS_DRAWN) return setDrawing({ tooLarge: true })
    let live = true
    import('../../../src/visualizations/render.ts').then(({ renderVisualization }) => {
      const el = box.current
      if (!live || !el) return
      const style = getComputedStyle(el)
      const size = {
        width: el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        height: el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
      }
      try {
        setDrawing({ html: renderVisualization({ type: vis.type, options: vis.options }, { columns: result.data.columns, rows: result.data.rows }, size, { document }, { filters }), resultId: result.id })
      } catch (error) {
        setDrawing({ error: error instanceof Error ? error.message : String(error) })
      }
    }, (error: Error) => live && setDrawing({ error: error.message }))
    return () => {
      live = false
    }
  }, [result, vis, filters])
  return drawing
}
