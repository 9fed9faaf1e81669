import { useCallback, useEffect, useRef, useState } from 'react'
import { mergeFilters, selectionFromSearch, writeSelection } from '../../../src/visualizations/filter-choices.ts'
import type { Filter } from '../../../src/visualizations/filters.ts'
import { announceWidgetFilters, onDashboardFilters } from '../bus.ts'
import type { ChartWidget } from './types.ts'

type Selection = Record<string, unknown[]>

/**
 * The choices made in the dashboard's filters panel so far, remembered for the widgets that hydrate after them (a
 * widget below the fold hydrates only when scrolled near). Listening starts when the widget islands' module loads.
 */
let chosen: Selection = {}
if (typeof window !== 'undefined') onDashboardFilters(({ selection }) => (chosen = { ...chosen, ...selection }))

/**
 * A widget's result filters: the filters it knows (the page's result's, extended by every later result's values, so
 * a refresh that brings new values offers them too, and a widget with parameters gets its filters once it ran), and
 * the values chosen (the address's at first), changed on its card or, with the dashboard's filters merged, in the
 * panel above the grid. Each new choice is drawn again by the server (`redraw`); a choice on the card replaces the
 * address (no new history entry: a filter is a view of the same page), so a reload or a shared link keeps it.
 */
export function useWidgetFilters(w: ChartWidget, merged: boolean, latest: Filter[] | null, redraw: () => void) {
  const [filters, setFilters] = useState<Filter[]>(w.filters)
  // with the panel, any choice made there applies: a result's filters are known only once it is drawn
  const [selection, setSelection] = useState<Selection>(() => ({ ...w.filterSelection, ...(merged ? chosen : {}) }))
  const first = useRef(true)
  // merging turned on or off in edit mode changes where choices come from, not what the card shows: no redraw
  const mergedAtFirst = useRef(merged)

  useEffect(() => {
    if (!latest?.length) return
    setFilters((known) => mergeFilters([known, latest]))
    // filters first known now (a widget with parameters, after its run) take the address's choice, as the page's do
    const asked = selectionFromSearch(new URLSearchParams(window.location.search), latest)
    setSelection((prev) => {
      const missing = Object.entries(asked).filter(([name]) => !(name in prev))
      return missing.length ? { ...Object.fromEntries(missing), ...prev } : prev
    })
    if (merged) announceWidgetFilters({ widgetId: w.id, filters: latest })
  }, [latest, merged, w.id])

  useEffect(() => {
    if (!merged) return
    return onDashboardFilters(({ selection: next }) => setSelection((prev) => ({ ...prev, ...next })))
  }, [merged])

  useEffect(() => {
    // the page's drawing already shows the first choice; every later one is drawn again
    if (first.current) {
      first.current = false
      if (!mergedAtFirst.current || !Object.keys(chosen).length || !w.filters.length) return
    }
    redraw()
  }, [selection, redraw, w.filters.length])

  const choose = useCallback((name: string, values: unknown[]) => {
    setSelection((prev) => ({ ...prev, [name]: values }))
    const search = writeSelection(new URLSearchParams(window.location.search), filters, { [name]: values })
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${search}${window.location.hash}`)
  }, [filters])

  return { filters, selection, choose }
}
