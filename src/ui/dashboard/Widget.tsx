import type { CSSProperties, JSX } from 'react'
import { ui } from '../../../islands/lib/ui.ts'
import { GRID_VIEW, type WidgetView } from '../../dashboards/view.ts'
import { dashboardTexts as t } from '../../shared/dashboard-texts.ts'
import { timeAgo } from '../../users/display.ts'

/** The widget's cell on the grid; the stylesheet applies it above 768 px only. */
export function placeStyle(w: WidgetView): CSSProperties {
  return {
    '--col': `${w.place.col + 1} / span ${w.place.sizeX}`,
    '--row': `${w.place.row + 1} / span ${w.place.sizeY}`,
    '--height': `${w.place.sizeY * GRID_VIEW.rowHeight}px`,
  } as CSSProperties
}

const card = `${ui.card} dashboard-widget flex min-h-0 flex-col overflow-hidden`

export function Widget({ widget: w, now }: { widget: WidgetView; now: number }): JSX.Element {
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
