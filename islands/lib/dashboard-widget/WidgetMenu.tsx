import type { JSX } from 'react'
import { dashboardTexts as t } from '../../../src/shared/dashboard-texts.ts'
import { ui } from '../ui.ts'
import { usePopover } from '../use-popover.ts'

const item = 'block w-full px-3 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700'
const unavailable = 'block w-full cursor-not-allowed px-3 py-1.5 text-left text-sm text-slate-400 dark:text-slate-500'

/**
 * A chart widget's menu (the established tool's widget menu): Expand, the three downloads of the result the card
 * shows (spec 2 §7, through the query's result files), Refresh when the query runs without parameters, and View
 * Query for those with view_query (spec 2 §6). Downloads and Export as PNG are plain links, so the browser saves the file itself.
 */
export function WidgetMenu({ name, queryId, resultId, exportHref, canRefresh, canViewQuery, onExpand, onRefresh }: {
  name: string
  queryId: number
  resultId: number | null
  /** The chart as a picture drawn by the server, with the values the card runs with. */
  exportHref: string
  canRefresh: boolean
  canViewQuery: boolean
  onExpand: () => void
  onRefresh: () => void
}): JSX.Element {
  const { open, setOpen, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>()
  const downloads = [['csv', t.downloadCsv], ['tsv', t.downloadTsv], ['xlsx', t.downloadExcel]] as const
  const choose = (action: () => void) => () => {
    setOpen(false)
    action()
  }
  return (
    <div ref={root} className="relative shrink-0">
      <button ref={trigger} type="button" className={ui.iconButton} aria-haspopup="menu" aria-expanded={open} aria-label={t.widgetActions(name)}
        onClick={() => setOpen((o) => !o)}>
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden="true"><circle cx="12" cy="5" r="1.8" /><circle cx="12" cy="12" r="1.8" /><circle cx="12" cy="19" r="1.8" /></svg>
      </button>
      {open && (
        <ul role="menu" aria-label={t.widgetActions(name)} className="absolute right-0 z-30 mt-1 w-56 rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-800">
          <li role="none"><button type="button" role="menuitem" className={item} onClick={choose(onExpand)}>{t.expand}</button></li>
          {downloads.map(([ext, label]) => (
            <li key={ext} role="none" title={resultId === null ? t.noResultYet : undefined}>
              {resultId === null
                ? <span role="menuitem" aria-disabled="true" className={unavailable}>{label}</span>
                : <a role="menuitem" className={item} href={`/api/queries/${queryId}/results/${resultId}.${ext}`} download onClick={() => setOpen(false)}>{label}</a>}
            </li>
          ))}
          <li role="none"><a role="menuitem" className={item} href={exportHref} download onClick={() => setOpen(false)}>{t.exportPng}</a></li>
          {canRefresh && <li role="none"><button type="button" role="menuitem" className={item} onClick={choose(onRefresh)}>{t.refreshWidget}</button></li>}
          {canViewQuery && <li role="none"><a role="menuitem" className={item} href={`/queries/${queryId}`}>{t.viewQuery}</a></li>}
        </ul>
      )}
    </div>
  )
}
