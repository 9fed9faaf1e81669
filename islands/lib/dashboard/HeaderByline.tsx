import type { JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import type { HeaderDashboard } from './types.ts'

const t = dashboardTexts.header

/** Under the name: the owner, the tags as links to the list of dashboards so tagged, and (for its editors) Edit Tags. */
export function HeaderByline({ dashboard: d, editable, onEditTags }: { dashboard: HeaderDashboard; editable: boolean; onEditTags: () => void }): JSX.Element {
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400">
      {d.user && (
        <span className="mr-2 flex items-center gap-1.5" title={t.owner(d.user.name)}>
          <img src={d.user.profile_image_url} alt="" width={20} height={20} className="h-5 w-5 rounded-full" />
          {dashboardTexts.by(d.user.name)}
        </span>
      )}
      {d.tags.length > 0 && (
        <ul aria-label={dashboardTexts.tags} className="flex flex-wrap gap-1">
          {d.tags.map((tag) => (
            <li key={tag}>
              <a href={`/dashboards?tags=${encodeURIComponent(tag)}`} data-tag
                className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-950 dark:text-indigo-300">{tag}</a>
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <button type="button" onClick={onEditTags}
          className="rounded-full border border-dashed border-slate-400 px-2 py-0.5 text-xs text-slate-600 hover:border-indigo-400 hover:text-indigo-700 dark:border-slate-500 dark:text-slate-300">
          {d.tags.length ? t.editTags : `+ ${t.addTags}`}
        </button>
      )}
    </div>
  )
}
