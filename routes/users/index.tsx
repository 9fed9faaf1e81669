import { Hono, type Context } from 'hono'
import type { JSX } from 'react'
import UserSearch, { USERS_RESULTS_ID } from '../../islands/UserSearch.tsx'
import { ui } from '../../islands/lib/ui.ts'
import { Forbidden } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { isAdmin } from '../../src/permissions/can.ts'
import type { Principal } from '../../src/permissions/principal.ts'
import { texts } from '../../src/shared/texts.ts'
import { Icon } from '../../src/ui/icons.tsx'
import { renderShellPage } from '../../src/ui/Page.tsx'
import { SettingsLayout } from '../../src/ui/SettingsTabs.tsx'
import { formatDay, timeAgo } from '../../src/users/display.ts'
import { canListUsers, listUsersPage, parseUserOrder, type UserJson, type UserOrder } from '../../src/users/service.ts'

const t = texts.users
const PAGE_SIZES = [10, 25, 50] // spec 3 §9: admin tables page at 25, with 10, 25 and 50 to choose from
const DEFAULT_PAGE_SIZE = 25
const DEFAULT_ORDER = '-created_at' // spec 3 §9: users list default sort created_at descending

type Tab = 'active' | 'pending' | 'disabled'
const TABS: { key: Tab; path: string; label: string; empty: string; adminOnly?: boolean }[] = [
  { key: 'active', path: '/users', label: t.active, empty: t.empty },
  { key: 'pending', path: '/users/pending', label: t.pending, empty: t.emptyPending },
  { key: 'disabled', path: '/users/disabled', label: t.disabled, empty: t.emptyDisabled, adminOnly: true },
]

interface ListState {
  tab: (typeof TABS)[number]
  q: string
  order: string
  page: number
  pageSize: number
}

/** The address of the list with some of its state changed; defaults are left out, so links stay short. */
function hrefOf(s: ListState, change: Partial<ListState> = {}): string {
  const next = { ...s, ...change }
  const query = new URLSearchParams()
  if (next.q) query.set('q', next.q)
  if (next.order !== DEFAULT_ORDER) query.set('order', next.order)
  if (next.page > 1) query.set('page', String(next.page))
  if (next.pageSize !== DEFAULT_PAGE_SIZE) query.set('page_size', String(next.pageSize))
  const qs = query.toString()
  return qs ? `${next.tab.path}?${qs}` : next.tab.path
}

const sideLink = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-500 ${current
    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'}`

const pagerLink = 'rounded-md px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800'
const headClass = 'px-4 py-2.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase sm:px-5 dark:text-slate-400'

/** A column title that sorts by it: the first click picks the natural direction, the next one turns it round. */
function SortHeader({ s, column, label, className = '' }: { s: ListState; column: UserOrder; label: string; className?: string }): JSX.Element {
  const current = parseUserOrder(s.order)
  const active = current.order === column
  const nextOrder = active ? (current.descending ? column : `-${column}`) : column === 'name' ? 'name' : `-${column}`
  return (
    <th scope="col" className={`${headClass} ${className}`} aria-sort={active ? (current.descending ? 'descending' : 'ascending') : undefined}>
      <a href={hrefOf(s, { order: nextOrder, page: 1 })} className="inline-flex items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-slate-100"
        aria-label={t.sortBy(label)}>
        {label}
        {active && <Icon name="chevron" className={`h-3.5 w-3.5 ${current.descending ? '' : 'rotate-180'}`} />}
      </a>
    </th>
  )
}

function Results({ s, count, users, dateFormat }: { s: ListState; count: number; users: UserJson[]; dateFormat: string }): JSX.Element {
  const pages = Math.max(1, Math.ceil(count / s.pageSize))
  const now = Date.now()
  const summary = `${s.tab.label}: ${t.count(count)}`
  return (
    <div id={USERS_RESULTS_ID} data-summary={summary} className="flex flex-col gap-4">
      {users.length === 0 ? (
        <p className={`${ui.card} px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400`}>{s.q ? t.noMatches : s.tab.empty}</p>
      ) : (
        <div className={`${ui.card} overflow-hidden`}>
          <table className="w-full table-fixed text-sm">
            <caption className="sr-only">{summary}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
              <tr>
                <SortHeader s={s} column="name" label={t.name} />
                <th scope="col" className={`${headClass} hidden w-48 lg:table-cell`}>{t.groups}</th>
                <SortHeader s={s} column="created_at" label={t.joined} className="hidden w-32 md:table-cell" />
                <SortHeader s={s} column="active_at" label={t.lastActive} className="hidden w-40 md:table-cell" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {users.map((u) => (
                <tr key={u.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
                  <td className="px-4 py-3 sm:px-5">
                    <a href={`/users/${u.id}`} className="group flex min-w-0 items-center gap-3 rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500">
                      <img src={u.profile_image_url} alt="" width={32} height={32} className="h-8 w-8 shrink-0 rounded-full bg-slate-100 dark:bg-slate-800" />
                      <span className="flex min-w-0 flex-col">
                        <span className="flex min-w-0 items-center gap-2">
                          <span className="truncate font-medium text-slate-900 group-hover:text-indigo-700 group-hover:underline dark:text-slate-100 dark:group-hover:text-indigo-300">{u.name}</span>
                          {u.is_invitation_pending && <span className={`${ui.badge} shrink-0`}>{t.invitationPending}</span>}
                        </span>
                        <span className="truncate text-xs text-slate-500 dark:text-slate-400">{u.email}</span>
                      </span>
                    </a>
                  </td>
                  <td className="hidden px-4 py-3 sm:px-5 lg:table-cell">
                    <span className="flex flex-wrap gap-1">
                      {(u.groups as { id: number; name: string }[]).map((g) => <span key={g.id} className={ui.badge}>{g.name}</span>)}
                    </span>
                  </td>
                  <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 sm:px-5 md:table-cell dark:text-slate-400">
                    <time dateTime={u.created_at!}>{formatDay(u.created_at!, dateFormat)}</time>
                  </td>
                  <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 sm:px-5 md:table-cell dark:text-slate-400">
                    {u.active_at ? <time dateTime={u.active_at}>{timeAgo(u.active_at, now)}</time> : t.never}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {count > PAGE_SIZES[0] && (
        <nav aria-label={t.pagination} className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <div className="flex items-center gap-1">
            {s.page > 1
              ? <a className={pagerLink} href={hrefOf(s, { page: s.page - 1 })} rel="prev">{t.previous}</a>
              : <span className={`${pagerLink} pointer-events-none opacity-40`} aria-disabled="true">{t.previous}</span>}
            <span className="px-2 text-slate-500 dark:text-slate-400">{t.pageOf(s.page, pages)}</span>
            {s.page < pages
              ? <a className={pagerLink} href={hrefOf(s, { page: s.page + 1 })} rel="next">{t.next}</a>
              : <span className={`${pagerLink} pointer-events-none opacity-40`} aria-disabled="true">{t.next}</span>}
          </div>
          <div className="flex items-center gap-1">
            <span className="mr-1 text-slate-500 dark:text-slate-400">{t.pageSize}</span>
            {PAGE_SIZES.map((size) => (
              <a key={size} href={hrefOf(s, { pageSize: size, page: 1 })} aria-current={size === s.pageSize ? 'true' : undefined}
                className={`rounded-md px-2 py-1 ${size === s.pageSize ? 'bg-indigo-600 font-semibold text-white' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`}>{size}</a>
            ))}
          </div>
        </nav>
      )}
    </div>
  )
}

function UsersPage({ principal, s, count, users, dateFormat }: {
  principal: Principal; s: ListState; count: number; users: UserJson[]; dateFormat: string
}): JSX.Element {
  const tabs = TABS.filter((tab) => !tab.adminOnly || isAdmin(principal))
  return (
    <SettingsLayout principal={principal} active="users">
      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        <nav aria-label={t.menu} className="-mx-4 overflow-x-auto px-4 md:mx-0 md:w-48 md:shrink-0 md:px-0">
          <ul className="flex gap-1 md:flex-col">
            {tabs.map((tab) => (
              <li key={tab.key}>
                <a className={sideLink(tab.key === s.tab.key)} href={tab.path} aria-current={tab.key === s.tab.key ? 'page' : undefined}>{tab.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="users-title" className="flex min-w-0 flex-1 flex-col gap-4">
          <h2 id="users-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{s.tab.label}</h2>
          <UserSearch action={s.tab.path} q={s.q} keep={{
            ...(s.order !== DEFAULT_ORDER ? { order: s.order } : {}),
            ...(s.pageSize !== DEFAULT_PAGE_SIZE ? { page_size: String(s.pageSize) } : {}),
          }} />
          <Results s={s} count={count} users={users} dateFormat={dateFormat} />
        </section>
      </div>
    </SettingsLayout>
  )
}

async function listPage(c: Context<Env>, tab: (typeof TABS)[number]) {
  const { principal, org } = signedIn(c)
  if (!canListUsers(principal)) throw new Forbidden()
  if (tab.adminOnly && !isAdmin(principal)) throw new Forbidden()
  const asked = Number(c.req.query('page_size'))
  const pageSize = PAGE_SIZES.includes(asked) ? asked : DEFAULT_PAGE_SIZE
  const page = Math.max(1, Math.trunc(Number(c.req.query('page')) || 1))
  const q = (c.req.query('q') ?? '').trim().slice(0, 200)
  const parsed = parseUserOrder(c.req.query('order') ?? DEFAULT_ORDER)
  const order = `${parsed.descending ? '-' : ''}${parsed.order}`
  const result = await listUsersPage(c.get('deps'), principal, {
    q: q || undefined, ...parsed, page, pageSize,
    disabled: tab.key === 'disabled', pending: tab.key === 'disabled' ? undefined : tab.key === 'pending',
  }, { clampPage: true })
  const s: ListState = { tab, q, order, page: result.page, pageSize }
  return renderShellPage(c, <UsersPage principal={principal} s={s} count={result.count} users={result.results} dateFormat={org.settings.date_format} />,
    { title: tab.key === 'active' ? t.title : `${tab.label} · ${t.title}`, section: 'settings' })
}

/** The users list (spec 3 §2 "Users and profile"): search, sorting and pages all in the address, so it works without script. */
export default new Hono<Env>()
  .get('/users', (c) => listPage(c, TABS[0]))
  .get('/users/pending', (c) => listPage(c, TABS[1]))
  .get('/users/disabled', (c) => listPage(c, TABS[2]))
