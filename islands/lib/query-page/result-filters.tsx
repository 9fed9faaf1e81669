import { useMemo, useState, type JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import type { FilterSelection } from '../../../src/visualizations/filter-choices.ts'
import { applyFilters, deriveFilters, type Filter } from '../../../src/visualizations/filters.ts'
import type { DataColumn, Row } from '../../../src/visualizations/types.ts'
import { FilterControls } from '../dashboard-filters/FilterControls.tsx'
import type { QueryResult } from '../editor/types.ts'

export interface ResultFilters {
  /** The filters the result's `::filter` / `::multi-filter` columns define (spec 1 §5); empty for most results. */
  filters: Filter[]
  /** The values chosen so far, by filter name; a filter not named here shows and applies its default. */
  selection: FilterSelection
  choose: (name: string, values: unknown[]) => void
}

/**
 * The result filters of the query page and the source page. The choice outlives a new result (a refresh keeps it),
 * as on dashboards; the rows are filtered where they are drawn (`applyFilters`, `renderVisualization`'s view).
 */
export function useResultFilters(result: { columns: DataColumn[]; rows: Row[] } | null, initial: FilterSelection = {}): ResultFilters {
  const filters = useMemo(() => (result ? deriveFilters(result.columns, result.rows) : []), [result])
  const [selection, setSelection] = useState<FilterSelection>(initial)
  return { filters, selection, choose: (name, values) => setSelection((prev) => ({ ...prev, [name]: values })) }
}

/** The result with only the rows the filters let through (the same object when there are no filters). */
export function useFilteredResult(result: QueryResult | null, { filters, selection }: ResultFilters): QueryResult | null {
  return useMemo(() => {
    if (!result || !filters.length) return result
    return { ...result, data: { ...result.data, rows: applyFilters(result.data.rows, filters, selection) } }
  }, [result, filters, selection])
}

/**
 * The filter controls above a result: the dashboards' own (a select per filter, a multi-select per multi-filter),
 * so no row is left out without a control saying so. Nothing when the result has no filter columns.
 */
export function ResultFilterBar({ filters, selection, choose }: ResultFilters): JSX.Element | null {
  if (!filters.length) return null
  return (
    <section aria-label={dashboardTexts.filters.panel} data-result-filters className="mt-3">
      <FilterControls filters={filters} selection={selection} onChange={choose} />
    </section>
  )
}
