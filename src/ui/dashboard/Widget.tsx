import type { CSSProperties, JSX } from 'react'
import { ui } from '../../../islands/lib/ui.ts'
import { GRID_VIEW, type WidgetView } from '../../dashboards/view.ts'
import DashboardWidget from '../../../islands/DashboardWidget.tsx'
import { serverDrawing } from '../../../islands/lib/dashboard-widget/types.ts'
import { dashboardTexts as t } from '../../shared/dashboard-texts.ts'

/** The widget's cell on the grid; the stylesheet applies it above 768 px only. */
export function placeStyle(w: WidgetView): CSSProperties {
  return {
    '--col': `${w.place.col + 1} / span ${w.place.sizeX}`,
    '--row': `${w.place.row + 1} / span ${w.place.sizeY}`,
    '--height': `${w.place.sizeY * GRID_VIEW.rowHeight}px`,
  } as CSSProperties
}

const card = `${ui.card} dashboard-widget flex min-h-0 flex-col overflow-hidden`

/**
 * One widget's card: a text box (markdown made safe) and a restricted widget are plain server markup; a chart is the
 * DashboardWidget island, drawn here whole and hydrated when scrolled near.
 */
export function Widget({ widget: w, now, filtersMerged }: { widget: WidgetView; now: number; filtersMerged: boolean }): JSX.Element {
  if (w.kind === 'restricted') {
    return (
      <article className={`${card} items-center justify-center p-4 text-center text-sm text-slate-500 dark:text-slate-400`} style={placeStyle(w)} data-widget-id={w.id}>
        {t.restricted}
      </article>
    )
  }
  if (w.kind === 'text') {
    return (
      <article className={`${card} dashboard-markdown overflow-auto p-4`} style={placeStyle(w)} data-widget-id={w.id}
        dangerouslySetInnerHTML={{ __html: w.html }} />
    )
  }
  const { html, note, retrievedAt, place, title, queryId, queryName, visualization, resultId, canViewQuery, id, parameters, mappings, filters, filterSelection } = w
  const widget = { id, place, title, queryId, queryName, visualization, resultId, retrievedAt, note, canViewQuery, parameters, mappings, filters, filterSelection }
  return <DashboardWidget widget={widget} drawing={html === null ? null : serverDrawing(html)} now={now} style={placeStyle(w)}
    filtersMerged={filtersMerged && filters.length > 0 ? true : undefined} />
}
