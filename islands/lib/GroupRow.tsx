import type { JSX, ReactNode } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { EmptyState } from './list/ListTable.tsx'
import { ui } from './ui.ts'

const t = texts.groups

export interface GroupSummary {
  id: number
  name: string
  builtin: boolean
}

const smallButton =
  'inline-flex min-h-8 items-center rounded-md border border-slate-300 bg-white px-3 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700'

/** A small button-looking action of a group row (Delete uses the same size, in red). */
export const rowDangerButton =
  'inline-flex min-h-8 items-center rounded-md border border-red-200 bg-white px-3 py-1 text-xs font-medium text-red-700 shadow-sm hover:bg-red-50 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-60 ' +
  'dark:border-red-900 dark:bg-slate-800 dark:text-red-300 dark:hover:bg-red-950/40'

/**
 * One row of the groups list (spec 3 §2 "Groups"): the name linking to the group's members, the 'built-in' label,
 * Members, Data Sources for admins, then the caller's extra actions (Delete). Drawn by the server page and the island.
 */
export function GroupRow({ group, admin, busy, children }: { group: GroupSummary; admin: boolean; busy?: boolean; children?: ReactNode }): JSX.Element {
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5" aria-busy={busy || undefined}>
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <a className="truncate text-sm font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300"
          href={`/groups/${group.id}`}>{group.name}</a>
        {group.builtin && <span className={ui.badge}>{t.builtIn}</span>}
      </div>
      <div className="flex gap-2">
        <a className={smallButton} href={`/groups/${group.id}`} aria-label={`${t.members}: ${group.name}`}>{t.members}</a>
        {admin && <a className={smallButton} href={`/groups/${group.id}/data_sources`} aria-label={`${t.dataSources}: ${group.name}`}>{t.dataSources}</a>}
        {children}
      </div>
    </li>
  )
}

/** The rows in their card, or the empty state. */
export function GroupRows({ empty, children }: { empty: boolean; children: ReactNode }): JSX.Element {
  if (empty) return <EmptyState>{t.empty}</EmptyState>
  return <ul className={`${ui.card} divide-y divide-slate-100 dark:divide-slate-800`} aria-labelledby="groups-title">{children}</ul>
}
