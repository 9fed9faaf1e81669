import type { Context } from 'hono'
import type { JSX } from 'react'
import SnippetDialog, { SNIPPETS_RESULTS_ID, type SnippetView } from '../../islands/SnippetDialog.tsx'
import { EmptyState, ListTable, type ListColumn } from '../../islands/lib/list/ListTable.tsx'
import { Pager } from '../../islands/lib/list/Pager.tsx'
import { addressView, type ListView } from '../../islands/lib/list/view.ts'
import { ui } from '../../islands/lib/ui.ts'
import { Forbidden, Redirect } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { listSearch, readListState, type ListSpec } from '../../src/shared/list/address.ts'
import { parseOrder } from '../../src/shared/list/params.ts'
import type { SnippetJson } from '../../src/snippets/index.ts'
import { canCreateSnippets, canViewSnippets, getSnippet, listSnippets, SNIPPET_ORDERS, type SnippetOrder } from '../../src/snippets/index.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'
import { Icon, renderShellPage, SettingsLayout } from '../../src/ui/index.ts'
import { timeAgo } from '../../src/users/index.ts'

const t = queryTexts.snippets
const LIST_PATH = '/query_snippets'
const SNIPPETS_LIST: ListSpec<SnippetOrder> = {
  columns: { trigger: 'asc', description: 'asc', created_by: 'asc', updated_at: 'desc' },
  defaultOrder: 'trigger', // spec 2 §9: snippet list 10 per page, sorted by trigger
  pageSizes: [5, 10, 20, 50, 100], // spec 2 §9: the paginator's size options
  defaultPageSize: 10,
}

const COLUMNS: ListColumn[] = [
  { label: t.trigger, sort: 'trigger', className: 'md:w-56' },
  { label: t.description, sort: 'description', className: 'hidden md:table-cell' },
  { label: t.snippet, className: 'hidden w-56 xl:table-cell' },
  { label: t.createdBy, sort: 'created_by', className: 'hidden w-44 md:table-cell' },
  { label: t.updated, sort: 'updated_at', className: 'hidden w-36 md:table-cell' },
]
const cellClass = 'px-4 py-3 sm:px-5'

function Author({ user }: { user: SnippetJson['user'] }): JSX.Element {
  if (!user) return <span className="text-slate-400 italic dark:text-slate-500">{t.deletedUser}</span>
  return (
    <span className="flex min-w-0 items-center gap-2">
      <img src={user.profile_image_url} alt="" width={24} height={24} className="h-6 w-6 shrink-0 rounded-full bg-slate-100 dark:bg-slate-800" />
      <span className="truncate">{user.name}</span>
    </span>
  )
}

/** The part a save or delete in the dialog replaces with a fresh copy of this page's (see SnippetDialog). */
function Results({ list, count, snippets, canCreate }: { list: ListView; count: number; snippets: SnippetJson[]; canCreate: boolean }): JSX.Element {
  const now = Date.now()
  const search = listSearch(SNIPPETS_LIST, list.s)
  return (
    <div id={SNIPPETS_RESULTS_ID} className="flex flex-col gap-4">
      {snippets.length === 0 ? (
        <EmptyState icon={<Icon name="queries" className="h-8 w-8 text-slate-400" />}>
          {t.empty}
          {canCreate && <> <a className={ui.link} href="/query_snippets/new" data-snippet-id="new">{t.clickHere}</a> {t.toAddOne}</>}
        </EmptyState>
      ) : (
        <ListTable list={list} caption={`${t.title}: ${t.count(count)}`} columns={COLUMNS}>
          {snippets.map((snippet) => (
            <tr key={snippet.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
              <td className={cellClass}>
                <a href={`${LIST_PATH}/${snippet.id}${search}`} data-snippet-id={snippet.id} aria-label={t.open(snippet.trigger)} title={snippet.trigger}
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
        </ListTable>
      )}
      <Pager list={list} count={count} summary="pages" sizeLabel={t.pageSize} />
    </div>
  )
}

const viewOf = (json: SnippetJson): SnippetView => ({
  id: json.id, trigger: json.trigger, description: json.description, snippet: json.snippet,
  user: json.user && { id: json.user.id, name: json.user.name },
})

/** The list, and the same list with the dialog open on a snippet or on a new one (spec 2 §2 "/query_snippets"). */
export async function listPage(c: Context<Env>, opened: 'new' | number | null) {
  const { principal } = signedIn(c)
  if (!canViewSnippets(principal)) throw new Forbidden()
  const canCreate = canCreateSnippets(principal)
  // "If the user cannot create …, they are redirected to the list", as with the other create dialogs
  if (opened === 'new' && !canCreate) throw new Redirect(LIST_PATH)
  const deps = c.get('deps')
  const snippet = typeof opened === 'number' ? await getSnippet(deps, principal, opened) : null

  const asked = readListState(SNIPPETS_LIST, new URL(c.req.url).searchParams)
  const result = await listSnippets(deps, principal, { order: parseOrder(asked.order, SNIPPET_ORDERS), paging: asked })
  // an address past the end (after deletions, say) shows the last page rather than an empty one
  const list = addressView(SNIPPETS_LIST, { ...asked, page: result.page }, LIST_PATH)
  const title = snippet ? `${snippet.trigger} · ${t.title}` : opened === 'new' ? t.createTitle : t.title

  return renderShellPage(c, (
    <ListPage principal={principal} list={list} count={result.count} snippets={result.results} canCreate={canCreate}>
      <SnippetDialog opened={snippet ? viewOf(snippet) : opened === 'new' ? 'new' : null} listHref={list.link(list.s).href}
        viewer={{ id: principal.id, admin: isAdmin(principal), canCreate }} />
    </ListPage>
  ), { title, section: 'settings' })
}

function ListPage({ principal, list, count, snippets, canCreate, children }: {
  principal: Principal; list: ListView; count: number; snippets: SnippetJson[]; canCreate: boolean; children: JSX.Element
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
        <Results list={list} count={count} snippets={snippets} canCreate={canCreate} />
      </section>
      {children}
    </SettingsLayout>
  )
}
