import type { JSX, ReactNode } from 'react'
import type { Principal } from '../permissions/index.ts'
import { originTexts } from '../shared/origin-texts.ts'
import { texts } from '../shared/texts.ts'
import { Icon, Logo, type IconName } from './icons.tsx'
import { navigation } from './navigation.ts'
import HelpDrawer from '../../islands/HelpDrawer.tsx'
import Toaster from '../../islands/Toaster.tsx'
import SessionExpiredModal from '../../islands/SessionExpiredModal.tsx'
import MenuDismiss from '../../islands/MenuDismiss.tsx'

export interface ShellProps {
  principal: Principal
  version: string
  newVersionAvailable: boolean
  /** The main section this page belongs to, highlighted in the navigation. */
  section?: string
  /** Sightline does not know its public origin (shown to admins only): a banner asks for it. */
  originMissing?: boolean
  children: ReactNode
}

/** Until Sightline knows its address no link carrying a token is mailed: the admin is asked to set it. */
function OriginBanner(): JSX.Element {
  return (
    <p role="status" data-origin-banner="" className="mb-4 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
      <span>{originTexts.banner}</span>
      <a href="/settings/general#org-base-url" className="font-medium underline hover:no-underline">{originTexts.bannerAction}</a>
    </p>
  )
}

const itemClass =
  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400'
const activeClass = 'bg-slate-800 text-white'
const menuClass =
  'absolute z-30 mt-1 min-w-48 rounded-md border border-slate-200 bg-white py-1 text-sm text-slate-700 shadow-lg dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200'
const menuItemClass = 'block px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700 focus-visible:bg-slate-100 dark:focus-visible:bg-slate-700'
/** Phone menu entries: finger-sized (44 px), with the same icons as the side navigation. */
const mobileItemClass = 'flex min-h-11 items-center gap-3 px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700 focus-visible:bg-slate-100 dark:focus-visible:bg-slate-700'
const mobileIconClass = 'h-5 w-5 shrink-0 text-slate-400 dark:text-slate-500'
const dividerClass = 'my-1 border-t border-slate-200 dark:border-slate-700'

/** A disclosure menu that works without script: <details> is keyboard- and screen-reader-friendly as it is. */
function Menu({ label, icon, children, align = 'left', up = false }: {
  label: string; icon?: IconName; children: ReactNode; align?: 'left' | 'right'; up?: boolean
}): JSX.Element {
  return (
    <details className="group relative" data-menu="">
      <summary className={`${itemClass} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        {icon && <Icon name={icon} />}
        <span className="flex-1">{label}</span>
        <Icon name="chevron" className="h-4 w-4 transition-transform group-open:rotate-180" />
      </summary>
      <div className={`${menuClass} ${align === 'right' ? 'right-0' : 'left-0'} ${up ? 'bottom-full mb-1' : ''}`}>{children}</div>
    </details>
  )
}

function ProfileMenuItems({ principal, version, newVersionAvailable, superAdmin, mobile }: {
  principal: Principal; version: string; newVersionAvailable: boolean; superAdmin: boolean; mobile?: boolean
}): JSX.Element {
  const item = mobile ? mobileItemClass : menuItemClass
  // on phones every entry of the menu has its icon; the small desktop menu is text only
  const icon = (name: IconName) => mobile ? <Icon name={name} className={mobileIconClass} /> : null
  return (
    <>
      <a className={item} href="/users/me">{icon('user')}{texts.nav.profile}</a>
      {mobile && <a className={item} href="/users/me#edit">{icon('edit')}{texts.nav.editProfile}</a>}
      {superAdmin && <a className={item} href="/admin/status">{icon('status')}{texts.nav.systemStatus}</a>}
      {/* a form, not a link: signing out is a POST, so no link or image elsewhere can sign anyone out */}
      <form method="post" action="/logout">
        <button type="submit" className={`${item} w-full cursor-pointer text-left`}>{icon('logout')}{texts.nav.logout}</button>
      </form>
      <div className="mt-1 border-t border-slate-200 px-4 pt-2 pb-1 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
        {texts.nav.version(version)}
        {superAdmin && newVersionAvailable && (
          <a className="ml-2 font-medium text-indigo-600 dark:text-indigo-400" href="/admin/status">
            {texts.nav.updateAvailable}
          </a>
        )}
      </div>
      {!mobile && <span className="sr-only">{principal.email}</span>}
    </>
  )
}

/** The signed-in app shell: side navigation on wide screens, a top bar with a menu on phones. */
export function AppShell({ principal, version, newVersionAvailable, section, originMissing, children }: ShellProps): JSX.Element {
  const nav = navigation(principal.permissions)
  const icons: Record<string, IconName> = { dashboards: 'dashboards', queries: 'queries', alerts: 'alerts' }
  const profile = { principal, version, newVersionAvailable, superAdmin: nav.superAdmin }
  const avatar = <img src={principal.profileImageUrl} alt="" className="h-6 w-6 rounded-full" width={24} height={24} />
  return (
    <div className="min-h-screen md:flex">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:m-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900">
        {texts.nav.skipToContent}
      </a>
      <header className="flex items-center justify-between bg-slate-900 px-4 py-2 md:hidden">
        <a href="/" className="flex items-center gap-2 text-white" aria-label={`${texts.product}, ${texts.nav.home}`}><Logo /><span className="font-semibold">{texts.product}</span></a>
        <nav aria-label={texts.nav.menu}>
          <details className="relative" data-menu="">
            <summary className="cursor-pointer list-none rounded p-2 text-slate-200 [&::-webkit-details-marker]:hidden" aria-label={texts.nav.menu}>
              <Icon name="menu" />
            </summary>
            <div className={`${menuClass} right-0 max-h-[calc(100dvh-4rem)] w-72 overflow-y-auto`}>
              <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-700">
                <img src={principal.profileImageUrl} alt="" className="h-8 w-8 rounded-full" width={32} height={32} />
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900 dark:text-slate-100">{principal.name}</p>
                  <p className="truncate text-xs text-slate-500 dark:text-slate-400">{principal.email}</p>
                </div>
              </div>
              {nav.main.map((item) => (
                <a key={item.key} className={`${mobileItemClass} ${section === item.key ? 'font-semibold text-indigo-700 dark:text-indigo-300' : ''}`}
                  href={item.href} aria-current={section === item.key ? 'page' : undefined}>
                  <Icon name={icons[item.key]} className={mobileIconClass} />{item.label}
                </a>
              ))}
              {nav.create.length > 0 && <div className={dividerClass} />}
              {nav.create.map((item) => (
                <a key={item.key} className={mobileItemClass} href={item.href}><Icon name="plus" className={mobileIconClass} />{item.label}</a>
              ))}
              <div className={dividerClass} />
              <a className={mobileItemClass} href="/help" data-help-link=""><Icon name="help" className={mobileIconClass} />{texts.nav.help}</a>
              {nav.settingsHref && (
                <a className={mobileItemClass} href={nav.settingsHref}><Icon name="settings" className={mobileIconClass} />{texts.nav.settings}</a>
              )}
              <div className={dividerClass} />
              <ProfileMenuItems {...profile} mobile />
            </div>
          </details>
        </nav>
      </header>
      {/* the dark column stretches to the page's full height (a full-page capture, a print); the links inside stay in view */}
      <div className="hidden w-56 shrink-0 bg-slate-900 md:block" data-side-column>
        <nav aria-label={texts.nav.main} className="sticky top-0 flex h-screen flex-col gap-1 p-3">
          <a href="/" className="mb-4 flex items-center gap-2 px-2 py-1 text-white" aria-label={`${texts.product}, ${texts.nav.home}`}>
            <Logo /><span className="text-lg font-semibold tracking-tight">{texts.product}</span>
          </a>
          {nav.main.map((item) => (
            <a key={item.key} href={item.href} className={`${itemClass} ${section === item.key ? activeClass : ''}`}
              aria-current={section === item.key ? 'page' : undefined}>
              <Icon name={icons[item.key]} />{item.label}
            </a>
          ))}
          {nav.create.length > 0 && (
            <div className="mt-2">
              <Menu label={texts.nav.create} icon="plus">
                {nav.create.map((item) => <a key={item.key} className={menuItemClass} href={item.href}>{item.label}</a>)}
              </Menu>
            </div>
          )}
          <div className="flex-1" />
          <a href="/help" data-help-link="" className={itemClass}><Icon name="help" />{texts.nav.help}</a>
          {nav.settingsHref && (
            <a href={nav.settingsHref} className={`${itemClass} ${section === 'settings' ? activeClass : ''}`}><Icon name="settings" />{texts.nav.settings}</a>
          )}
          <details className="group relative" data-menu="">
            <summary className={`${itemClass} cursor-pointer list-none [&::-webkit-details-marker]:hidden`} aria-label={`${texts.nav.account}: ${principal.name}`}>
              {avatar}<span className="flex-1 truncate">{principal.name}</span>
            </summary>
            <div className={`${menuClass} bottom-full left-0 mb-1 w-full`}>
              <ProfileMenuItems {...profile} />
            </div>
          </details>
        </nav>
      </div>
      <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8">{originMissing && <OriginBanner />}{children}</main>
      <HelpDrawer />
      <Toaster />
      <SessionExpiredModal />
      <MenuDismiss />
    </div>
  )
}
