import type { CSSProperties, JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'
import type { DashboardJson } from '../dashboards/details.ts'
import { GRID_VIEW, type WidgetView } from '../dashboards/view.ts'
import { dashboardTexts as t } from '../shared/dashboard-texts.ts'
import { timeAgo } from '../users/display.ts'

/**
 * A dashboard as its page first shows it, drawn on the server (spec 2 §2 "Dashboard page"): the header, then the
 * widgets on the 6-column grid, rows of 50 px, each chart already drawn, so the first paint shows the numbers. At
 * or below 768 px the widgets stack in one column, in reading order.
 */
export function DashboardView({ dashboard, widgets, canEdit }: { dashboard: DashboardJson; widgets: WidgetView[]; canEdit: boolean }): JSX.Element {
  const now = Date.now()
  return (
    <div className="mx-auto flex max-w-[1200px] flex-col gap-6">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{dashboard.name}</h1>
        {dashboard.is_draft && <span className={ui.badge}>{t.unpublished}</span>}
        {dashboard.is_archived && <span className={ui.badge}>{t.archived}</span>}
        {dashboard.user && (
          <span className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <img src={dashboard.user.profile_image_url} alt="" width={24} height={24} className="h-6 w-6 rounded-full" />
            {t.by(dashboard.user.name)}
          </span>
        )}
        {dashboard.tags.length > 0 && (
          <ul aria-label={t.tags} className="flex flex-wrap gap-1">
            {dashboard.tags.map((tag) => <li key={tag} className={ui.badge}>{tag}</li>)}
          </ul>
        )}
      </header>
      {widgets.length === 0
        ? <p className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">{canEdit ? t.emptyEditable : t.empty}</p>
        : (
          <section aria-label={t.widgets} className="dashboard-grid">
            {widgets.map((w) => <Widget key={w.id} widget={w} now={now} />)}
          </section>
        )}
    </div>
  )
}

/** The widget's cell on the grid; the stylesheet applies it above 768 px only. */
function placeStyle(w: WidgetView): CSSProperties {
  return {
    '--col': `${w.place.col + 1} / span ${w.place.sizeX}`,
    '--row': `${w.place.row + 1} / span ${w.place.sizeY}`,
    '--height': `${w.place.sizeY * GRID_VIEW.rowHeight}px`,
  } as CSSProperties
}

const card = `${ui.card} dashboard-widget flex min-h-0 flex-col overflow-hidden`

function Widget({ widget: w, now }: { widget: WidgetView; now: number }): JSX.Element {
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
  const note = { 'never-run': t.neverRun, 'too-large': t.tooLarge, 'cannot-draw': t.cannotDraw, 'has-parameters': t.hasParameters }
  return (
    <article className={card} style={placeStyle(w)} data-widget-id={w.id} aria-labelledby={`widget-${w.id}-title`}>
      <header className="flex items-baseline justify-between gap-3 border-b border-slate-100 px-4 py-2 dark:border-slate-800">
        <h2 id={`widget-${w.id}-title`} className="min-w-0 truncate text-sm font-semibold text-slate-900 dark:text-slate-100">
          <a href={`/queries/${w.queryId}`} className="hover:underline" title={t.openQuery(w.queryName)}>{w.queryName}</a>
          {w.title !== w.queryName && <span className="font-normal text-slate-500 dark:text-slate-400"> · {w.title}</span>}
        </h2>
        {w.retrievedAt && (
          <time dateTime={w.retrievedAt} className="shrink-0 text-xs text-slate-500 dark:text-slate-400">{t.updated(timeAgo(w.retrievedAt, now))}</time>
        )}
      </header>
      {w.html !== null
        ? <div className="min-h-0 flex-1 overflow-auto p-2" dangerouslySetInnerHTML={{ __html: w.html }} />
        : <p className="flex flex-1 items-center justify-center p-4 text-center text-sm text-slate-500 dark:text-slate-400">{w.note ? note[w.note] : ''}</p>}
    </article>
  )
}
