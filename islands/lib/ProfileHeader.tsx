import type { JSX, ReactNode } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { ui } from './ui.ts'

/** The top of a profile: picture, name (the page's heading), email and state. Rendered by the page and the editor alike. */
export function ProfileHeader({ name, email, image, disabled, pending }: {
  name: string; email: string; image: string; disabled: boolean; pending: boolean
}): JSX.Element {
  return (
    <div className="flex flex-col items-center gap-2 text-center">
      <img src={image} alt="" width={64} height={64} className="h-16 w-16 rounded-full bg-slate-100 dark:bg-slate-800" />
      <h1 className="max-w-full text-xl font-semibold break-words text-slate-900 dark:text-slate-100">{name}</h1>
      <p className="max-w-full text-sm break-all text-slate-500 dark:text-slate-400">{email}</p>
      {(disabled || pending) && (
        <p className="flex gap-2">
          {disabled && <span className={ui.badge}>{texts.profile.disabledBadge}</span>}
          {pending && <span className={ui.badge}>{texts.profile.pendingBadge}</span>}
        </p>
      )}
    </div>
  )
}

/** A card section of the profile with its heading. */
export function ProfileSection({ id, title, hint, children }: { id: string; title: string; hint?: string; children: ReactNode }): JSX.Element {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`${ui.card} scroll-mt-6 p-5 sm:p-8`}>
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
      {hint && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{hint}</p>}
      <div className="mt-5">{children}</div>
    </section>
  )
}

/** Groups as read-only labels. */
export function GroupList({ groups }: { groups: { id: number; name: string }[] }): JSX.Element {
  return (
    <div>
      <p className={ui.label}>{texts.profile.groups}</p>
      {groups.length ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={texts.profile.groups}>
          {[...groups].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
            .map((g) => <li key={g.id} className={ui.badge}>{g.name}</li>)}
        </ul>
      ) : <p className="text-sm text-slate-500 dark:text-slate-400">{texts.profile.noGroups}</p>}
    </div>
  )
}
