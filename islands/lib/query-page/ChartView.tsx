import { useEffect, useRef, useState, type JSX } from 'react'
import type { QueryResult } from '../editor/types.ts'
import type { PageVisualization } from './types.ts'

interface Size {
  width: number
  height: number
}

/**
 * A visualization other than the table, drawn in the browser by the shared renderer from the shown result (the
 * same code that draws it on the server). The renderer and its chart library load only when such a tab opens,
 * and it redraws when the box changes size.
 */
export function ChartView({ vis, result }: { vis: PageVisualization; result: QueryResult }): JSX.Element {
  const box = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState<Size | null>(null)
  const [drawn, setDrawn] = useState<{ html: string } | { error: string } | null>(null)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect
      setSize((s) => (s && Math.abs(s.width - width) < 2 && Math.abs(s.height - height) < 2 ? s : { width, height }))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    if (!size) return
    let live = true
    import('../../../src/visualizations/render.ts').then(({ renderVisualization }) => {
      if (!live) return
      try {
        const html = renderVisualization({ type: vis.type, options: vis.options }, { columns: result.data.columns, rows: result.data.rows }, size, { document })
        setDrawn({ html })
      } catch (error) {
        setDrawn({ error: error instanceof Error ? error.message : String(error) })
      }
    }, (error: Error) => live && setDrawn({ error: error.message }))
    return () => {
      live = false
    }
  }, [vis, result, size])

  return (
    <div ref={box} className="relative min-h-0 flex-1 overflow-auto p-3" data-visualization={vis.type}>
      {drawn && 'error' in drawn && <p role="alert" className="m-auto max-w-md p-6 text-center text-sm text-red-700 dark:text-red-300">{drawn.error}</p>}
      {/* the renderer builds DOM nodes and serialises them, so text from the result arrives escaped */}
      {drawn && 'html' in drawn && <div className="h-full w-full" dangerouslySetInnerHTML={{ __html: drawn.html }} />}
    </div>
  )
}
