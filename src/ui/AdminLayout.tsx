import type { JSX, ReactNode } from 'react'
import { auditTexts } from '../shared/audit-texts.ts'
import { reportUiTexts } from '../shared/report-texts.ts'
import { importTexts } from '../shared/import-summary.ts'
import { texts } from '../shared/texts.ts'

/** The admin monitoring pages in their order, each a tab of the admin sub-navigation (spec 3 §2). */
export const ADMIN_PAGES = [
  { key: 'status', label: texts.monitoring.systemStatus, href: '/admin/status' },
  { key: 'jobs', label: texts.monitoring.rqStatus, href: '/admin/queries/jobs' },
  { key: 'outdated', label: texts.monitoring.outdatedQueries, href: '/admin/queries/outdated' },
  { key: 'audit', label: auditTexts.title, href: '/admin/audit' },
  { key: 'subscriptions', label: reportUiTexts.adminTitle, href: '/admin/subscriptions' },
  { key: 'import', label: importTexts.title, href: '/admin/import' },
] as const

export type AdminPage = (typeof ADMIN_PAGES)[number]['key']

/**
 * A monitoring page: its title, the admin sub-navigation shared by the three pages with the current one marked,
 * then the page. Only super admins reach these pages, so every tab is theirs to open.
 */
export function AdminLayout({ active, children }: { active: AdminPage; children: ReactNode }): JSX.Element {
  const title = ADMIN_PAGES.find((p) => p.key === active)!.label
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{title}</h1>
        <nav aria-label={texts.monitoring.nav} className="-mx-4 overflow-x-auto border-b border-slate-200 px-4 md:mx-0 md:px-0 dark:border-slate-800">
          <ul className="flex gap-6">
            {ADMIN_PAGES.map((page) => {
              const current = page.key === active
              return (
                <li key={page.key}>
                  <a href={page.href} aria-current={current ? 'page' : undefined}
                    className={`-mb-px inline-block border-b-2 px-1 pt-1 pb-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-500 ${current
                      ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300'
                      : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-slate-100'}`}>
                    {page.label}
                  </a>
                </li>
              )
            })}
          </ul>
        </nav>
      </div>
      {children}
    </div>
  )
}
