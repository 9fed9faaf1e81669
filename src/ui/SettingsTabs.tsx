import type { JSX, ReactNode } from 'react'
import type { Principal } from '../permissions/index.ts'
import { texts } from '../shared/texts.ts'
import { settingsItems } from './navigation.ts'

/**
 * The settings screen's horizontal tab menu (spec 3 §1): only the items the user may see, the current one marked.
 * On a phone the row wraps, so every tab, the current one included, shows without scrolling or script.
 */
export function SettingsTabs({ principal, active }: { principal: Principal; active: string }): JSX.Element {
  const items = settingsItems(principal.permissions)
  return (
    <nav aria-label={texts.settingsPage.title} className="border-b border-slate-200 dark:border-slate-800">
      <ul className="flex flex-wrap gap-x-6 gap-y-1">
        {items.map((item) => {
          const current = item.key === active
          return (
            <li key={item.key}>
              <a href={item.href} aria-current={current ? 'page' : undefined}
                className={`-mb-px inline-block border-b-2 px-1 pt-1 pb-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-500 ${current
                  ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300'
                  : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-slate-100'}`}>
                {item.label}
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

/**
 * A settings page: the "Settings" title, the tabs, then the page. `titleIsHeading` is false on pages that have a
 * heading of their own (one h1 per page).
 */
export function SettingsLayout({ principal, active, children, titleIsHeading = true }: {
  principal: Principal; active: string; children: ReactNode; titleIsHeading?: boolean
}): JSX.Element {
  const titleClass = 'text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100'
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div className="flex flex-col gap-4">
        {titleIsHeading ? <h1 className={titleClass}>{texts.settingsPage.title}</h1> : <p className={titleClass}>{texts.settingsPage.title}</p>}
        <SettingsTabs principal={principal} active={active} />
      </div>
      {children}
    </div>
  )
}
