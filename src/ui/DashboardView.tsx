import type { JSX } from 'react'
import type { ParametersView, WidgetView } from '../dashboards/index.ts'
import type { ParameterState } from '../shared/dashboard-parameters.ts'
import DashboardAutoHeight from '../../islands/DashboardAutoHeight.tsx'
import DashboardFilters from '../../islands/DashboardFilters.tsx'
import DashboardParameters from '../../islands/DashboardParameters.tsx'
import { mergeFilters } from '../visualizations/filter-choices.ts'
import { dashboardTexts as t } from '../shared/dashboard-texts.ts'
import DashboardHeader from '../../islands/DashboardHeader.tsx'
import SubscribeDialog, { type SubscribeDialogProps } from '../../islands/SubscribeDialog.tsx'
import type { DashboardHeaderProps } from '../../islands/lib/dashboard/types.ts'
import { Widget } from './dashboard/Widget.tsx'
import { FlashNotice } from './FlashNotice.tsx'

/**
 * A dashboard as its page first shows it, drawn on the server (spec 2 §2 "Dashboard page"): the header, then the
 * widgets on the 6-column grid, rows of 50 px, each chart already drawn, so the first paint shows the numbers. At
 * or below 768 px the widgets stack in one column, in reading order.
 */
export function DashboardView({ widgets, canEdit, header, parameters, filtersMerged = false, notice, subscribe }: {
  widgets: WidgetView[]; canEdit: boolean
  /** A one-time notice of what led here (a fork that left charts out). */
  notice?: string
  /** The dashboard's same-named result filters are one panel above the grid (its dashboard_filters_enabled). */
  filtersMerged?: boolean
  /** The dashboard's parameters and the widgets' own, with the values the address asked for; null when none has any. */
  parameters: (ParametersView & { initial: ParameterState }) | null
  /** The header island's props: the dashboard's fields it shows, the caller's rights, the address's flags. */
  header: DashboardHeaderProps
  /** Subscribe… (reports): what the dialog offers this caller; absent where reports do not apply. */
  subscribe?: SubscribeDialogProps
}): JSX.Element {
  const now = Date.now()
  const charts = widgets.flatMap((w) => (w.kind === 'chart' && w.filters.length ? [w] : []))
  // an editor's page has the panel even while merging is off, hidden, so edit mode can turn it on without a reload
  const panel = filtersMerged || canEdit
  const merged = panel && charts.length ? mergeFilters(charts.map((w) => w.filters)) : []
  const mergedInitial = Object.assign({}, ...charts.map((w) => w.filterSelection)) as Record<string, unknown[]>
  const autoHeight = widgets.flatMap((w) => (w.autoHeight ? [w.id] : []))
  return (
    <div className="mx-auto flex max-w-[1200px] flex-col gap-6" data-dashboard data-fullscreen={header.initial.fullscreen || undefined}>
      <DashboardHeader {...header} />
      {subscribe && <div className="-mt-4 flex justify-end print:hidden"><SubscribeDialog {...subscribe} /></div>}
      {notice && <FlashNotice>{notice}</FlashNotice>}
      {parameters && <DashboardParameters dashboard={parameters.dashboard} widgets={parameters.widgets} initial={parameters.initial} />}
      {panel && (merged.length > 0 || parameters) && <DashboardFilters filters={merged} initial={mergedInitial} enabled={filtersMerged} />}
      {widgets.length === 0
        ? <p data-dashboard-empty className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">{canEdit ? t.emptyEditable : t.empty}</p>
        : (
          <section aria-label={t.widgets} className="dashboard-grid" data-dashboard-grid>
            {widgets.map((w) => <Widget key={w.id} widget={w} now={now} filtersMerged={filtersMerged} />)}
          </section>
        )}
      {autoHeight.length > 0 && <DashboardAutoHeight auto={autoHeight} />}
    </div>
  )
}
