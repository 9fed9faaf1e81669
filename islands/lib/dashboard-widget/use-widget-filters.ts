import { useCallback, useEffect, useState } from 'react'
import { onDashboardFilters } from '../bus.ts'
import type { ChartWidget } from './types.ts'

type Selection = Record<string, unknown[]>

/**
 * The choices made in the dashboard's filters panel so far, remembered for the widgets that hydrate after them (a
 * widget below the fold hydrates only when scrolled near). Listening starts when the widget islands' module loads.
 */
let chosen: Selection = {}
if (typeof window !== 'undefined') onDashboardFilters(({ selection }) => (chosen = { ...chosen, ...selection }))

/** The part of a choice about this widget's filters (kept inline: the widget's script stays small without filters). */
function mine(selection: Selection, w: ChartWidget): Selection {
  return Object.fromEntries(w.filters.flatMap((f) => (selection[f.name] ? [[f.name, selection[f.name]]] : [])))
}

/**
 * A widget's result filters: the values chosen (the address's at first), changed on its card or, with the
 * dashboard's filters merged, in the panel above the grid. `needRows` asks for the rows in the browser, which the
 * chart is drawn again from.
 */
export function useWidgetFilters(w: ChartWidget, merged: boolean, needRows: () => void) {
  const [selection, setSelection] = useState<Selection>(() => ({ ...w.filterSelection, ...(merged ? mine(chosen, w) : {}) }))

  useEffect(() => {
    if (!merged || !w.filters.length) return
    // a choice made before this widget hydrated is drawn now
    if (Object.keys(mine(chosen, w)).length) needRows()
    return onDashboardFilters(({ selection: next }) => {
      const picked = mine(next, w)
      if (!Object.keys(picked).length) return
      setSelection((prev) => ({ ...prev, ...picked }))
      needRows()
    })
  }, [merged, w, needRows])

  const choose = useCallback((name: string, values: unknown[]) => {
    setSelection((prev) => ({ ...prev, [name]: values }))
    needRows()
  }, [needRows])

  return { selection, choose }
}
