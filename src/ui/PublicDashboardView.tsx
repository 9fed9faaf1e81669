import type { JSX } from 'react'
import DashboardFilters from '../../islands/DashboardFilters.tsx'
import DashboardParameters from '../../islands/DashboardParameters.tsx'
import DashboardWidget from '../../islands/DashboardWidget.tsx'
import { serverDrawing } from '../../islands/lib/dashboard-widget/types.ts'
import type { ParametersView, WidgetView } from '../dashboards/index.ts'
import type { ParameterState } from '../shared/dashboard-parameters.ts'
import { dashboardTexts as t } from '../shared/dashboard-texts.ts'
import { shareTexts } from '../shared/share-texts.ts'
import { mergeFilters } from '../visualizations/filter-choices.ts'
import { placeStyle, Widget } from './dashboard/Widget.tsx'

/** A chart that needs script on a public page: one that runs with parameter values, or offers result filters. */
export const isInteractive = (w: WidgetView) => w.kind === 'chart' && (w.parameters.length > 0 || w.filters.length > 0)

/**
 * A shared dashboard as strangers see it (spec 2 §2: "title, parameters, filters and a read-only grid, with no refresh
 * button and no menu"), every chart drawn on the server by the dashboard page's own renderer. Only what needs script
 * is an island: the parameters panel, the merged filters panel, and the charts that run with parameters or filter
 * their rows. A dashboard with none of those ships no script at all; its charts are the same cards, rendered once.
 */
export function PublicDashboardView({ name, token, widgets, parameters, filtersMerged }: {
  name: string
  /** The share token: the islands' calls go with it, never with a session (islands/lib/api.ts). */
  token: string
  widgets: WidgetView[]
  parameters: (ParametersView & { initial: ParameterState }) | null
  filtersMerged: boolean
}): JSX.Element {
  const now = Date.now()
  const charts = widgets.flatMap((w) => (w.kind === 'chart' && w.filters.length ? [w] : []))
  const merged = filtersMerged && charts.length ? mergeFilters(charts.map((w) => w.filters)) : []
  const mergedInitial = Object.assign({}, ...charts.map((w) => w.filterSelection)) as Record<string, unknown[]>
  const scripted = parameters !== null || merged.length > 0 || widgets.some(isInteractive)
  return (
    <main className="mx-auto flex max-w-[1200px] flex-col gap-6 p-4 sm:p-6" data-dashboard data-public-dashboard data-share-key={scripted ? token : undefined}>
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">{name}</h1>
      {parameters && <DashboardParameters dashboard={parameters.dashboard} widgets={parameters.widgets} initial={parameters.initial} plainHistory />}
      {merged.length > 0 && <DashboardFilters filters={merged} initial={mergedInitial} />}
      {widgets.length === 0
        ? <p data-dashboard-empty className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">{t.empty}</p>
        : (
          <section aria-label={shareTexts.publicGrid} className="dashboard-grid" data-dashboard-grid>
            {widgets.map((w) => <PublicWidget key={w.id} widget={w} now={now} filtersMerged={filtersMerged} />)}
          </section>
        )}
    </main>
  )
}

/** A text box or restricted card as on the dashboard page; a chart as the widget card, an island only when it must be. */
function PublicWidget({ widget: w, now, filtersMerged }: { widget: WidgetView; now: number; filtersMerged: boolean }): JSX.Element {
  if (w.kind !== 'chart') return <Widget widget={w} now={now} filtersMerged={filtersMerged} />
  const { html, note, retrievedAt, place, title, queryId, queryName, visualization, resultId, id, parameters, mappings, filters, filterSelection } = w
  const props = {
    widget: { id, place, title, queryId, queryName, visualization, resultId, retrievedAt, note, canViewQuery: false, parameters, mappings, filters, filterSelection },
    drawing: html === null ? null : serverDrawing(html), now, style: placeStyle(w),
    filtersMerged: filtersMerged && filters.length > 0 ? true : undefined, publicView: true,
  }
  // the same component either way: as an island it hydrates; rendered plainly it is markup and nothing else
  return isInteractive(w) ? <DashboardWidget {...props} /> : <DashboardWidget.Component {...props} />
}
