import type { ComponentType, JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'
import type { Principal } from '../permissions/index.ts'
import { Icon, type IconName } from './icons.tsx'
import { SettingsLayout } from './SettingsTabs.tsx'

/** One card of the list: the object's name and its type's name, linking to its page. */
export interface TypedObjectCard {
  id: number
  name: string
  type: string
  typeName: string
}

export interface TypedObjectListProps {
  principal: Principal
  /** The settings tab this list is (`data_sources`, `destinations`). */
  active: string
  title: string
  /** The list's address: cards link to `${path}/${id}`, the New button and empty state to `${path}/new`. */
  path: string
  newLabel: string
  /** The empty state: 'There are no … yet.' 'Click here' 'to add one.' */
  empty: { text: string; clickHere: string; toAddOne: string; icon: IconName }
  items: TypedObjectCard[]
  Logo: ComponentType<{ type: string; className?: string }>
  /** A one-time notice (the deletion that led here). */
  notice?: string
}

/**
 * The list page of a kind made from a list of types (spec 3 §2: data sources, and alert destinations, which "follow
 * exactly the same pattern"): logo cards, a New button, the empty state with its link, a notice after a deletion.
 */
export function TypedObjectList({ principal, active, title, path, newLabel, empty, items, Logo, notice }: TypedObjectListProps): JSX.Element {
  const headingId = `${active.replace(/_/g, '-')}-title`
  return (
    <SettingsLayout principal={principal} active={active}>
      {notice && (
        <div role="status" className="flex items-center gap-2 rounded-md border-l-4 border-emerald-500 bg-white px-4 py-3 text-sm text-slate-800 shadow-sm dark:bg-slate-900 dark:text-slate-100">
          <Icon name="check" className="h-4 w-4 text-emerald-600 dark:text-emerald-400" />{notice}
        </div>
      )}
      <section aria-labelledby={headingId} className="flex flex-col gap-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
          <a href={`${path}/new`} className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{newLabel}</a>
        </div>
        {items.length === 0 ? (
          <div className={`${ui.card} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
            <Icon name={empty.icon} className="h-8 w-8 text-slate-400" />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {empty.text} <a className={ui.link} href={`${path}/new`}>{empty.clickHere}</a> {empty.toAddOne}
            </p>
          </div>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
            {items.map((item) => (
              <li key={item.id}>
                <a href={`${path}/${item.id}`}
                  className={`${ui.card} flex h-full flex-col items-center gap-3 px-3 py-5 text-center transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:hover:border-indigo-500`}>
                  <Logo type={item.type} className="h-12 w-12" />
                  <span className="flex w-full min-w-0 flex-col">
                    <span className="truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={item.name}>{item.name}</span>
                    <span className="truncate text-xs text-slate-500 dark:text-slate-400">{item.typeName}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </SettingsLayout>
  )
}
