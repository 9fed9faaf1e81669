/**
 * The live preview: the draft drawn with the same renderer the query page and dashboards use, redrawn ~200 ms
 * after the last edit (typing a title should not redraw a 20,000-point chart per key) and when its box resizes.
 * Options the API would refuse show the validation message instead, so what saves is what was seen.
 */
import { useEffect, useRef, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { validateVisualization } from '../../../src/visualizations/registry.ts'
import { renderVisualization } from '../../../src/visualizations/render.ts'
import type { FilterSelection } from '../../../src/visualizations/filter-choices.ts'
import { ResultFilterBar, type ResultFilters } from '../query-page/result-filters.tsx'
import type { Draft, EditorResult } from './model.ts'

const t = queryTexts.visualizationEditor
export const PREVIEW_DELAY = 200

type Outcome = { html: string } | { error: string } | { empty: true }

export function Preview({ draft, result, filters }: { draft: Draft; result: EditorResult | null; filters: ResultFilters }): JSX.Element {
  const box = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState({ width: 0, height: 0 })
  const [outcome, setOutcome] = useState<Outcome>({ empty: true })

  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect
      setSize((s) => (Math.abs(s.width - width) < 1 && Math.abs(s.height - height) < 1 ? s : { width, height }))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    if (size.width === 0) return
    const timer = setTimeout(() => setOutcome(draw(draft, result, size, filters.selection)), PREVIEW_DELAY)
    return () => clearTimeout(timer)
  }, [draft, result, size, filters.selection])

  return (
    <section aria-label={t.preview} className="flex min-h-0 flex-1 flex-col">
      {filters.filters.length > 0 && <div className="border-b border-slate-200 px-3 pb-3 text-slate-900 dark:border-slate-800"><ResultFilterBar {...filters} /></div>}
      <div ref={box} className="relative min-h-0 flex-1 overflow-auto" data-preview>
        {'html' in outcome && <div className="h-full" data-preview-output dangerouslySetInnerHTML={{ __html: outcome.html }} />}
        {'error' in outcome && <p role="alert" className="m-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200" data-preview-error>{outcome.error}</p>}
        {'empty' in outcome && <p className="m-4 text-sm text-slate-500 dark:text-slate-400">{result ? '' : t.noData}</p>}
      </div>
    </section>
  )
}

/** The renderer escapes every value it writes, so its HTML can go into the page as it is. */
function draw(draft: Draft, result: EditorResult | null, size: { width: number; height: number }, filters: FilterSelection): Outcome {
  if (!result) return { empty: true }
  const checked = validateVisualization({ type: draft.type, options: draft.options })
  if (!checked.ok) return { error: checked.message }
  try {
    return { html: renderVisualization({ type: draft.type, options: draft.options }, result, { width: size.width - 2, height: size.height - 2 }, { document }, { filters }) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}
