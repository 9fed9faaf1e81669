import type { Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import type { JSX } from 'react'
import NewUserDialog from '../../islands/NewUserDialog.tsx'
import ListSearch, { LIST_RESULTS_ID } from '../../islands/ListSearch.tsx'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { EmptyState, ListTable, type ListColumn } from '../../islands/lib/list/ListTable.tsx'
import { Pager } from '../../islands/lib/list/Pager.tsx'
import { addressView, type ListView } from '../../islands/lib/list/view.ts'
import { ui } from '../../islands/lib/ui.ts'
import { Forbidden } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { readListState, searchKeeps, type ListSpec } from '../../src/shared/list/address.ts'
import { parseOrder } from '../../src/shared/list/params.ts'
import { texts } from '../../src/shared/texts.ts'
import { Icon, FlashNotice, renderShellPage, SettingsLayout } from '../../src/ui/index.ts'
import { formatDay } from '../../src/shared/time.ts'
import { timeAgo, canListUsers, listUsersPage, USER_ORDERS, type UserJson, type UserOrder } from '../../src/users/index.ts'

const t = texts.users
const USERS_LIST: ListSpec<UserOrder> = {
  columns: { name: 'asc', created_at: 'desc', active_at: 'desc' },
  defaultOrder: '-created_at', // spec 3 §9: users list default sort created_at descending
  pageSizes: [10, 25, 50], // spec 3 §9: admin tables page at 25, with 10, 25 and 50 to choose from
  defaultPageSize: 25,
  search: 'plain',
}

type Tab = 'active' | 'pending' | 'disabled'
export const TABS: { key: Tab; path: string; label: string; empty: string; adminOnly?: boolean }[] = [
  { key: 'active', path: '/users', label: t.active, empty: t.empty },
  { key: 'pending', path: '/users/pending', label: t.pending, empty: t.emptyPending },
  { key: 'disabled', path: '/users/disabled', label: t.disabled, empty: t.emptyDisabled, adminOnly: true },
]

const sideLink = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-500 ${current
    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'}`

const COLUMNS: ListColumn[] = [
  { label: t.name, sort: 'name' },
  { label: t.groups, className: 'hidden w-48 lg:table-cell' },
  { label: t.joined, sort: 'created_at', className: 'hidden w-32 md:table-cell' },
  { label: t.lastActive, sort: 'active_at', className: 'hidden w-40 md:table-cell' },
]

function Results({ list, tab, count, users, dateFormat }: {
  list: ListView; tab: (typeof TABS)[number]; count: number; users: UserJson[]; dateFormat: string
}): JSX.Element {
  const now = Date.now()
  const summary = `${tab.label}: ${t.count(count)}`
  return (
    <div id={LIST_RESULTS_ID} data-summary={summary} className="flex flex-col gap-4">
      {users.length === 0 ? <EmptyState>{list.s.q ? t.noMatches : tab.empty}</EmptyState> : (
        <ListTable list={list} caption={summary} columns={COLUMNS}>
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
                <time dateTime={u.created_at!}>{formatDay(u.created_at!, { date: dateFormat })}</time>
              </td>
              <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 sm:px-5 md:table-cell dark:text-slate-400">
                {u.active_at ? <time dateTime={u.active_at}>{timeAgo(u.active_at, now)}</time> : t.never}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      <Pager list={list} count={count} summary="pages" sizeLabel={t.pageSize} />
    </div>
  )
}

function UsersPage({ principal, list, tab, count, users, dateFormat, notice }: {
  principal: Principal; list: ListView; tab: (typeof TABS)[number]; count: number; users: UserJson[]; dateFormat: string; notice?: string
}): JSX.Element {
  const tabs = TABS.filter((each) => !each.adminOnly || isAdmin(principal))
  return (
    <SettingsLayout principal={principal} active="users">
      {notice && <FlashNotice>{notice}</FlashNotice>}
      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        {/* on a phone the tabs wrap: all of them show, the current one too */}
        <nav aria-label={t.menu} className="md:w-48 md:shrink-0">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {tabs.map((each) => (
              <li key={each.key}>
                <a className={sideLink(each.key === tab.key)} href={each.path} aria-current={each.key === tab.key ? 'page' : undefined}>{each.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="users-title" className="flex min-w-0 flex-1 flex-col gap-4">
          <div className="flex items-center justify-between gap-4">
            <h2 id="users-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{tab.label}</h2>
            {/* creating users is for admins (spec 3 §6): a link, so this list needs no script of its own for it */}
            {isAdmin(principal) && (
              <a href="/users/new" className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{texts.userActions.newUser}</a>
            )}
          </div>
          <ListSearch id="users-search" action={tab.path} q={list.s.q} keep={searchKeeps(USERS_LIST, list.s)} label={t.search} placeholder={t.searchPlaceholder} />
          <Results list={list} tab={tab} count={count} users={users} dateFormat={dateFormat} />
        </section>
      </div>
    </SettingsLayout>
  )
}

/** The notice a deleted invitation's profile left for the list (islands/UserActions.tsx), shown once. */
function deletedNotice(c: Context<Env>): string | undefined {
  const flash = getCookie(c, FLASH_COOKIE)
  if (!flash) return undefined
  deleteCookie(c, FLASH_COOKIE, { path: '/users' })
  return flash === 'user_deleted' ? texts.userActions.deleted : undefined
}

export async function listPage(c: Context<Env>, tab: (typeof TABS)[number], withDialog = false) {
  const { principal, org } = signedIn(c)
  if (!canListUsers(principal)) throw new Forbidden()
  if (tab.adminOnly && !isAdmin(principal)) throw new Forbidden()
  const s = readListState(USERS_LIST, new URL(c.req.url).searchParams)
  const result = await listUsersPage(c.get('deps'), principal, {
    list: { ...s, order: parseOrder(s.order, USER_ORDERS) },
    disabled: tab.key === 'disabled', pending: tab.key === 'disabled' ? undefined : tab.key === 'pending',
  }, { clampPage: true })
  const list = addressView(USERS_LIST, { ...s, page: result.page }, tab.path)
  const page = <UsersPage principal={principal} list={list} tab={tab} count={result.count} users={result.results} dateFormat={org.settings.date_format} notice={deletedNotice(c)} />
  return renderShellPage(c, <>{page}{withDialog && <NewUserDialog />}</>, {
    title: withDialog ? texts.userActions.createTitle : tab.key === 'active' ? t.title : `${tab.label} · ${t.title}`, section: 'settings',
  })
}
