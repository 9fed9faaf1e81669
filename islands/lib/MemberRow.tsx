import type { JSX, ReactNode } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { ui } from './ui.ts'

export interface Member {
  id: number
  name: string
  email: string
  profile_image_url: string
  is_disabled?: boolean
}

/** One member of a group: picture, name (to their profile) and email, with an action at the end. */
export function MemberRow({ member, children, busy }: { member: Member; children?: ReactNode; busy?: boolean }): JSX.Element {
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5" aria-busy={busy || undefined}>
      <a href={`/users/${member.id}`} className="group flex min-w-0 flex-1 basis-48 items-center gap-3 rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500">
        <img src={member.profile_image_url} alt="" width={32} height={32} className="h-8 w-8 shrink-0 rounded-full bg-slate-100 dark:bg-slate-800" />
        <span className="flex min-w-0 flex-col">
          <span className="flex min-w-0 items-center gap-2">
            <span className="truncate text-sm font-medium text-slate-900 group-hover:text-indigo-700 group-hover:underline dark:text-slate-100 dark:group-hover:text-indigo-300">{member.name}</span>
            {member.is_disabled && <span className={`${ui.badge} shrink-0`}>{texts.users.disabledBadge}</span>}
          </span>
          <span className="truncate text-xs text-slate-500 dark:text-slate-400">{member.email}</span>
        </span>
      </a>
      {children && <div className="ml-auto flex items-center gap-2">{children}</div>}
    </li>
  )
}

export const byName = (a: Member, b: Member) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id
