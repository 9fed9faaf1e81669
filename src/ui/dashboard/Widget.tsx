import type { CSSProperties, JSX } from 'react'
import { ui } from '../../../islands/lib/ui.ts'
import { GRID_VIEW, type WidgetView } from '../../dashboards/index.ts'
import DashboardWidget from '../../../islands/DashboardWidget.tsx'
import { cardData, serverDrawing } from '../../../islands/lib/dashboard-widget/types.ts'
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
 * DashboardWidget island, drawn here whole and hydrated when scrolled near. A chart with parameters may have filters
 * once it ran, so with the dashboard's filters merged it joins the panel too.
 */
export function Widget({ widget: w, now, filtersMerged }: { widget: WidgetView; now: number; filtersMerged: boolean }): JSX.Element {
  if (w.kind === 'restricted') {
    return (
      <article className={`${card} items-center justify-center p-4 text-center text-sm text-slate-500 dark:text-slate-400`} style={placeStyle(w)} {...cardData(w)}>
        <p>{t.restricted}</p>
      </article>
    )
  }
  if (w.kind === 'text') {
    return (
      <article className={`${card} dashboard-markdown overflow-auto p-4`} style={placeStyle(w)} {...cardData(w)}>
        {/* the text's natural height, which an auto-height widget's rows follow */}
        <div className="flex-none" dangerouslySetInnerHTML={{ __html: w.html }} />
      </article>
    )
  }
  const { html, note, retrievedAt, place, title, queryId, queryName, visualization, resultId, canViewQuery, id, parameters, mappings, filters, filterSelection, autoHeight } = w
  const widget = { id, place, title, queryId, queryName, visualization, resultId, retrievedAt, note, canViewQuery, parameters, mappings, filters, filterSelection, autoHeight: autoHeight || undefined }
  return <DashboardWidget widget={widget} drawing={html === null ? null : serverDrawing(html)} now={now} style={placeStyle(w)}
    filtersMerged={filtersMerged && (filters.length > 0 || parameters.length > 0) ? true : undefined} />
}
