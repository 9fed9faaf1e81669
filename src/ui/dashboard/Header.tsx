import type { JSX } from 'react'
import { ui } from '../../../islands/lib/ui.ts'
import type { DashboardJson } from '../../dashboards/details.ts'
import { dashboardTexts as t } from '../../shared/dashboard-texts.ts'

/** The dashboard's header (spec 2 §2): its name, draft and archived marks, owner and tags. */
export function DashboardHeader({ dashboard }: { dashboard: DashboardJson }): JSX.Element {
  return (
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
  )
}
