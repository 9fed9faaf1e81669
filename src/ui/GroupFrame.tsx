import type { JSX, ReactNode } from 'react'
import GroupHeader from '../../islands/GroupHeader.tsx'
import { ui } from '../../islands/lib/ui.ts'
import { isAdmin } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { texts } from '../shared/texts.ts'
import { SettingsLayout } from './SettingsTabs.tsx'

const t = texts.groups

const sideLink = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${current
    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'}`

/**
 * The frame of a group's pages (spec 3 §2 "Groups"): the group's name as the heading (editable, with Delete Group,
 * for admins on a group that is not built-in), the 'built-in' label, and the side menu of Members and, for
 * admins, Data Sources.
 */
export function GroupFrame({ principal, group, active, children }: {
  principal: Principal
  group: { id: number; name: string; type: string }
  active: 'members' | 'data_sources'
  children: ReactNode
}): JSX.Element {
  const admin = isAdmin(principal)
  const builtin = group.type === 'builtin'
  return (
    <SettingsLayout principal={principal} active="groups" titleIsHeading={false}>
      {admin && !builtin ? <GroupHeader group={{ id: group.id, name: group.name }} /> : (
        <div className="flex items-center gap-2">
          <h1 className="min-w-0 truncate text-xl font-semibold text-slate-900 dark:text-slate-100">{group.name}</h1>
          {builtin && <span className={ui.badge}>{t.builtIn}</span>}
        </div>
      )}
      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        <nav aria-label={`${t.groupMenu}: ${group.name}`} className="md:w-48 md:shrink-0">
          <ul className="flex gap-1 md:flex-col">
            <li><a className={sideLink(active === 'members')} href={`/groups/${group.id}`} aria-current={active === 'members' ? 'page' : undefined}>{t.members}</a></li>
            {admin && (
              <li>
                <a className={sideLink(active === 'data_sources')} href={`/groups/${group.id}/data_sources`}
                  aria-current={active === 'data_sources' ? 'page' : undefined}>{t.dataSources}</a>
              </li>
            )}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </SettingsLayout>
  )
}
