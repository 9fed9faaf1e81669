import { lazy, Suspense, type JSX } from 'react'
import { dashboardTexts as t } from '../../../src/shared/dashboard-texts.ts'
import type { ParameterDefinition, ParameterValue } from '../../../src/shared/parameters/index.ts'
import type { Filter } from '../../../src/visualizations/filters.ts'
import { applyWidgetParameters } from '../bus.ts'
import type { ChartWidget } from './types.ts'

// loaded only by a widget whose rows define result filters
const FilterControls = lazy(() => import('../dashboard-filters/FilterControls.tsx'))
const ParameterInputs = lazy(() => import('../parameters/ParameterInputs.tsx').then((m) => ({ default: m.ParameterInputs })))

const panel = 'border-b border-slate-100 px-4 py-2 dark:border-slate-800'

/** A widget's own parameters, shown on its card; Apply goes through the dashboard's parameters (the address). */
export function WidgetParameters({ w, own, values }: { w: ChartWidget; own: ParameterDefinition[]; values: Record<string, ParameterValue> }): JSX.Element {
  return (
    <div role="group" aria-label={t.parameters.widgetPanel(w.title)} className={panel} data-widget-parameters>
      <Suspense fallback={null}>
        <ParameterInputs definitions={own} values={values} queryId={w.queryId}
          onApply={(next: Record<string, ParameterValue>) => applyWidgetParameters({ widgetId: w.id, values: next })} />
      </Suspense>
    </div>
  )
}

/** A widget's result filters, on its card when the dashboard does not merge them into its panel. */
export function WidgetFilters({ w, filters, selection, onChange }: {
  w: ChartWidget; filters: Filter[]; selection: Record<string, unknown[]>; onChange: (name: string, values: unknown[]) => void
}): JSX.Element {
  return (
    <div role="group" aria-label={t.filters.widgetPanel(w.title)} className={panel} data-widget-filters>
      <Suspense fallback={null}>
        <FilterControls filters={filters} selection={selection} onChange={onChange} />
      </Suspense>
    </div>
  )
}
