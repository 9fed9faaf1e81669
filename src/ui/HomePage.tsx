import type { JSX } from 'react'
import BeaconConsent from '../../islands/BeaconConsent.tsx'
import { texts } from '../shared/texts.ts'
import { Icon } from './icons.tsx'

export interface FavoriteItem {
  id: number
  name: string
  href: string
  isDraft: boolean
}

export interface HomeProps {
  isAdmin: boolean
  counters: { data_sources: number; queries: number; dashboards: number; users: number }
  messages: string[]
  showBeaconConsent: boolean
  favoriteDashboards: FavoriteItem[]
  favoriteQueries: FavoriteItem[]
}

function Step({ done, children }: { done: boolean; children: JSX.Element | string }): JSX.Element {
  return (
    <li className="flex items-center gap-3 py-2 text-sm text-slate-700 dark:text-slate-300">
      <span className={`flex h-6 w-6 items-center justify-center rounded-full border ${done ? 'border-emerald-500 bg-emerald-500 text-white' : 'border-slate-300 dark:border-slate-600'}`}>
        {done && <Icon name="check" className="h-4 w-4" />}
      </span>
      <span className={done ? 'text-slate-500 line-through dark:text-slate-400' : ''}>{children}</span>
    </li>
  )
}

const link = 'font-medium text-indigo-600 hover:underline dark:text-indigo-400'

/** Onboarding steps (spec 1 §2): connecting a source is a link only for admins. */
function Onboarding({ isAdmin, counters }: Pick<HomeProps, 'isAdmin' | 'counters'>): JSX.Element {
  return (
    <section aria-labelledby="welcome-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 id="welcome-title" className="text-xl font-semibold text-slate-900 dark:text-slate-100">{texts.home.welcome}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{texts.home.tagline}</p>
      <ol className="mt-4">
        <Step done={counters.data_sources > 0}>
          {isAdmin ? <a className={link} href="/data_sources/new">{texts.home.connectDataSource}</a> : texts.home.askAdmin}
        </Step>
        <Step done={counters.queries > 0}><a className={link} href="/queries/new">{texts.home.createQuery}</a></Step>
        <Step done={counters.dashboards > 0}><a className={link} href="/dashboards/new">{texts.home.createDashboard}</a></Step>
        {isAdmin && <Step done={counters.users > 1}><a className={link} href="/users/new">{texts.home.inviteUsers}</a></Step>}
      </ol>
    </section>
  )
}

function Favorites({ title, items, empty }: { title: string; items: FavoriteItem[]; empty: string }): JSX.Element {
  const id = title.replace(/\s+/g, '-').toLowerCase()
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 id={id} className="border-b border-slate-200 px-5 py-3 text-sm font-semibold text-slate-900 dark:border-slate-800 dark:text-slate-100">{title}</h2>
      {items.length === 0 ? (
        <p className="flex items-center gap-2 px-5 py-8 text-sm text-slate-500 dark:text-slate-400">
          <Icon name="star" className="h-4 w-4" />{empty}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {items.map((item) => (
            <li key={item.id} className="flex items-center gap-2 px-5 py-2 text-sm">
              <Icon name="star" className="h-4 w-4 fill-amber-400 text-amber-400" />
              <a className="text-slate-800 hover:underline dark:text-slate-200" href={item.href}>{item.name}</a>
              {item.isDraft && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">{texts.home.unpublished}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Warning({ children }: { children: JSX.Element | JSX.Element[] | string }): JSX.Element {
  return <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">{children}</div>
}

export function HomePage(props: HomeProps): JSX.Element {
  const onboardingDone = props.counters.data_sources > 0 && props.counters.queries > 0 && props.counters.dashboards > 0
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <h1 className="sr-only">{texts.nav.home}</h1>
      {props.messages.includes('using-deprecated-embed-feature') && <Warning>{texts.home.deprecatedEmbed}</Warning>}
      {props.messages.includes('email-not-verified') && (
        <Warning>
          <span>{texts.home.emailNotVerified} </span>
          <form method="post" action="/verification_email/" className="inline">
            <button type="submit" className="font-medium underline">{texts.home.resendEmail}</button>
          </form>
        </Warning>
      )}
      {props.showBeaconConsent && <BeaconConsent />}
      {!onboardingDone && <Onboarding isAdmin={props.isAdmin} counters={props.counters} />}
      <div className="grid gap-6 md:grid-cols-2">
        <Favorites title={texts.home.favoriteDashboards} items={props.favoriteDashboards} empty={texts.home.favoriteDashboardsEmpty} />
        <Favorites title={texts.home.favoriteQueries} items={props.favoriteQueries} empty={texts.home.favoriteQueriesEmpty} />
      </div>
    </div>
  )
}
