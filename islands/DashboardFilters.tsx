import { useEffect, useState, type JSX } from 'react'
import { mergeFilters, selectionFromSearch, writeSelection, type FilterSelection } from '../src/visualizations/filter-choices.ts'
import { dashboardTexts } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import type { Filter } from '../src/visualizations/filters.ts'
import { announceDashboardFilters, onWidgetFilters } from './lib/bus.ts'
import { FilterControls } from './lib/dashboard-filters/FilterControls.tsx'
import { useFiltersMerged } from './lib/dashboard-filters/use-filters-merged.ts'

export interface DashboardFiltersProps {
  /**
   * The widgets' same-named filters merged, each with the union of their values; empty when only widgets with
   * parameters may have some (they know theirs once they ran: the panel shows itself then).
   */
  filters: Filter[]
  /** The values the address chose, as the server read them. */
  initial: FilterSelection
  /**
   * Whether the filters are merged now (the dashboard's dashboard_filters_enabled): false on an editor's page while
   * they are not, so the panel can show itself the moment edit mode turns merging on.
   */
  enabled?: boolean
}

/**
 * The dashboard's filters panel (with the dashboard's filters merged): a choice here redraws every widget with that
 * filter from the rows it holds (no query runs), and is written to the address so a reload or a shared link keeps it.
 * It replaces the current history entry: a filter choice is a view of the same page, not a new page to go back from.
 * A widget's later results (a refresh, a run with new parameter values) add the values they bring to the choices.
 */
function DashboardFilters({ filters: initialFilters, initial, enabled = true }: DashboardFiltersProps): JSX.Element | null {
  const merged = useFiltersMerged(enabled)
  const [selection, setSelection] = useState(initial)
  const [filters, setFilters] = useState(initialFilters)
  useEffect(() => onWidgetFilters(({ filters: more }) => {
    setFilters((known) => mergeFilters([known, more]))
    // filters first known now show the address's choice, which their widgets drew with
    const asked = selectionFromSearch(new URLSearchParams(window.location.search), more)
    setSelection((prev) => ({ ...asked, ...prev }))
  }), [])
  function choose(name: string, values: unknown[]) {
    setSelection((prev) => ({ ...prev, [name]: values }))
    announceDashboardFilters({ selection: { [name]: values } })
    const search = writeSelection(new URLSearchParams(window.location.search), filters, { [name]: values })
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${search}${window.location.hash}`)
  }
  if (!merged || !filters.length) return null
  return (
    <section aria-label={dashboardTexts.filters.panel} data-dashboard-filters
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <FilterControls filters={filters} selection={selection} onChange={choose} />
    </section>
  )
}

export default island('DashboardFilters', DashboardFilters)
