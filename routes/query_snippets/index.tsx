import { Hono, type Context } from 'hono'
import type { JSX } from 'react'
import SnippetDialog, { SNIPPETS_RESULTS_ID, type SnippetView } from '../../islands/SnippetDialog.tsx'
import { ui } from '../../islands/lib/ui.ts'
import { Forbidden, NotFound, Redirect } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { idParam } from '../../src/http/validate.ts'
import { isAdmin } from '../../src/permissions/can.ts'
import type { Principal } from '../../src/permissions/principal.ts'
import type { SnippetJson } from '../../src/snippets/serialize.ts'
import {
  canCreateSnippets, canViewSnippets, getSnippet, listSnippets, parseSnippetOrder, type SnippetOrder,
} from '../../src/snippets/service.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'
import { Icon } from '../../src/ui/icons.tsx'
import { renderShellPage } from '../../src/ui/Page.tsx'
import { SettingsLayout } from '../../src/ui/SettingsTabs.tsx'
import { timeAgo } from '../../src/users/display.ts'

const t = queryTexts.snippets
const PAGE_SIZES = [5, 10, 20, 50, 100] // spec 2 §9: the paginator's size options
const DEFAULT_PAGE_SIZE = 10 // spec 2 §9: snippet list 10 per page, sorted by trigger
const DEFAULT_ORDER = 'trigger'
const LIST_PATH = '/query_snippets'

interface ListState {
  order: string
  page: number
  pageSize: number
}

/** The list's address with some of its state changed (defaults left out), under `path` (the list or one snippet). */
function hrefOf(s: ListState, change: Partial<ListState> = {}, path = LIST_PATH): string {
  const next = { ...s, ...change }
  const query = new URLSearchParams()
  if (next.order !== DEFAULT_ORDER) query.set('order', next.order)
  if (next.page > 1) query.set('page', String(next.page))
  if (next.pageSize !== DEFAULT_PAGE_SIZE) query.set('page_size', String(next.pageSize))
  const qs = query.toString()
  return qs ? `${path}?${qs}` : path
}

const pagerLink = 'rounded-md px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800'
const headClass = 'px-4 py-2.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase sm:px-5 dark:text-slate-400'
const cellClass = 'px-4 py-3 sm:px-5'

/** A sortable column title: the first click picks the natural direction (A–Z, newest first), the next turns it round. */
function SortHeader({ s, column, label, className = '' }: { s: ListState; column: SnippetOrder; label: string; className?: string }): JSX.Element {
  const current = parseSnippetOrder(s.order)
  const active = current.order === column
  const natural = column === 'updated_at' ? `-${column}` : column
  const nextOrder = active ? (current.descending ? column : `-${column}`) : natural
  return (
    <th scope="col" className={`${headClass} ${className}`} aria-sort={active ? (current.descending ? 'descending' : 'ascending') : undefined}>
      <a href={hrefOf(s, { order: nextOrder, page: 1 })} aria-label={t.sortBy(label)}
        className="inline-flex items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-slate-100">
        {label}
        {active && <Icon name="chevron" className={`h-3.5 w-3.5 ${current.descending ? '' : 'rotate-180'}`} />}
      </a>
    </th>
  )
}

function Author({ user }: { user: SnippetJson['user'] }): JSX.Element {
  if (!user) return <span className="text-slate-400 italic dark:text-slate-500">{t.deletedUser}</span>
  return (
    <span className="flex min-w-0 items-center gap-2">
      <img src={user.profile_image_url} alt="" width={24} height={24} className="h-6 w-6 shrink-0 rounded-full bg-slate-100 dark:bg-slate-800" />
      <span className="truncate">{user.name}</span>
    </span>
  )
}

function Pager({ s, count }: { s: ListState; count: number }): JSX.Element | null {
  // spec 2 §5: with the size selector shown, the paginator hides only when everything fits the smallest page
  if (count <= PAGE_SIZES[0]) return null
  const pages = Math.max(1, Math.ceil(count / s.pageSize))
  return (
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
  )
}

/** The part a save or delete in the dialog replaces with a fresh copy of this page's (see SnippetDialog). */
function Results({ s, count, snippets, canCreate }: { s: ListState; count: number; snippets: SnippetJson[]; canCreate: boolean }): JSX.Element {
  const now = Date.now()
  return (
    <div id={SNIPPETS_RESULTS_ID} className="flex flex-col gap-4">
      {snippets.length === 0 ? (
        <div className={`${ui.card} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
          <Icon name="queries" className="h-8 w-8 text-slate-400" />
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t.empty}
            {canCreate && <> <a className={ui.link} href="/query_snippets/new" data-snippet-id="new">{t.clickHere}</a> {t.toAddOne}</>}
          </p>
        </div>
      ) : (
        <div className={`${ui.card} overflow-hidden`}>
          <table className="w-full table-fixed text-sm">
            <caption className="sr-only">{`${t.title}: ${t.count(count)}`}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
              <tr>
                <SortHeader s={s} column="trigger" label={t.trigger} className="md:w-56" />
                <SortHeader s={s} column="description" label={t.description} className="hidden md:table-cell" />
                <th scope="col" className={`${headClass} hidden w-56 xl:table-cell`}>{t.snippet}</th>
                <SortHeader s={s} column="created_by" label={t.createdBy} className="hidden w-44 md:table-cell" />
                <SortHeader s={s} column="updated_at" label={t.updated} className="hidden w-36 md:table-cell" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {snippets.map((snippet) => (
                <tr key={snippet.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
                  <td className={cellClass}>
                    <a href={hrefOf(s, {}, `${LIST_PATH}/${snippet.id}`)} data-snippet-id={snippet.id} aria-label={t.open(snippet.trigger)} title={snippet.trigger}
                      className="block truncate rounded font-mono font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-indigo-300">
                      {snippet.trigger}
                    </a>
                    {/* on a phone the other columns fold into the first one */}
                    <span className="mt-0.5 flex flex-col text-xs text-slate-500 md:hidden dark:text-slate-400">
                      {snippet.description && <span className="truncate text-slate-600 dark:text-slate-300">{snippet.description}</span>}
                      <span className="truncate">{snippet.user?.name ?? t.deletedUser} · <time dateTime={snippet.updated_at!}>{timeAgo(snippet.updated_at!, now)}</time></span>
                    </span>
                  </td>
                  <td className={`${cellClass} hidden truncate text-slate-700 md:table-cell dark:text-slate-300`} title={snippet.description || undefined}>
                    {snippet.description}
                  </td>
                  <td className={`${cellClass} hidden xl:table-cell`}>
                    <code className="block truncate font-mono text-xs text-slate-600 dark:text-slate-400">{snippet.snippet.trim().split('\n')[0]}</code>
                  </td>
                  <td className={`${cellClass} hidden text-slate-700 md:table-cell dark:text-slate-300`}><Author user={snippet.user} /></td>
                  <td className={`${cellClass} hidden whitespace-nowrap text-slate-600 md:table-cell dark:text-slate-400`}>
                    <time dateTime={snippet.updated_at!}>{timeAgo(snippet.updated_at!, now)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager s={s} count={count} />
    </div>
  )
}

const viewOf = (json: SnippetJson): SnippetView => ({
  id: json.id, trigger: json.trigger, description: json.description, snippet: json.snippet,
  user: json.user && { id: json.user.id, name: json.user.name },
})

/** The list, and the same list with the dialog open on a snippet or on a new one (spec 2 §2 "/query_snippets"). */
async function listPage(c: Context<Env>, opened: 'new' | number | null) {
  const { principal } = signedIn(c)
  if (!canViewSnippets(principal)) throw new Forbidden()
  const canCreate = canCreateSnippets(principal)
  // "If the user cannot create …, they are redirected to the list", as with the other create dialogs
  if (opened === 'new' && !canCreate) throw new Redirect(LIST_PATH)
  const deps = c.get('deps')
  const snippet = typeof opened === 'number' ? await getSnippet(deps, principal, opened) : null

  const asked = Number(c.req.query('page_size'))
  const pageSize = PAGE_SIZES.includes(asked) ? asked : DEFAULT_PAGE_SIZE
  const parsed = parseSnippetOrder(c.req.query('order') ?? DEFAULT_ORDER)
  let page = Math.max(1, Math.trunc(Number(c.req.query('page')) || 1))
  const pageOf = (n: number) => listSnippets(deps, principal, { ...parsed, limit: pageSize, offset: (n - 1) * pageSize })
  let result = await pageOf(page)
  if (result.results.length === 0 && result.count > 0) {
    // an address past the end (after deletions, say) shows the last page rather than an empty one
    page = Math.ceil(result.count / pageSize)
    result = await pageOf(page)
  }
  const s: ListState = { order: `${parsed.descending ? '-' : ''}${parsed.order}`, page, pageSize }
  const title = snippet ? `${snippet.trigger} · ${t.title}` : opened === 'new' ? t.createTitle : t.title

  return renderShellPage(c, (
    <ListPage principal={principal} s={s} count={result.count} snippets={result.results} canCreate={canCreate}>
      <SnippetDialog opened={snippet ? viewOf(snippet) : opened === 'new' ? 'new' : null} listHref={hrefOf(s)}
        viewer={{ id: principal.id, admin: isAdmin(principal), canCreate }} />
    </ListPage>
  ), { title, section: 'settings' })
}

function ListPage({ principal, s, count, snippets, canCreate, children }: {
  principal: Principal; s: ListState; count: number; snippets: SnippetJson[]; canCreate: boolean; children: JSX.Element
}): JSX.Element {
  return (
    <SettingsLayout principal={principal} active="query_snippets">
      <section aria-labelledby="snippets-title" className="flex flex-col gap-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id="snippets-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.title}</h2>
          {canCreate && (
            <a href="/query_snippets/new" data-snippet-id="new" className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{t.newSnippet}</a>
          )}
        </div>
        <Results s={s} count={count} snippets={snippets} canCreate={canCreate} />
      </section>
      {children}
    </SettingsLayout>
  )
}

export default new Hono<Env>()
  .get('/query_snippets', (c) => listPage(c, null))
  .get('/query_snippets/new', (c) => listPage(c, 'new'))
  .get('/query_snippets/:id', (c) => listPage(c, idParam(c.req.param('id'), NotFound)))
