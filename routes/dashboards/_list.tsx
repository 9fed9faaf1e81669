import type { Context } from 'hono'
import type { JSX } from 'react'
import ListSearch, { LIST_RESULTS_ID } from '../../islands/ListSearch.tsx'
import NewDashboardDialog from '../../islands/NewDashboardDialog.tsx'
import { EmptyState, ListTable, type ListColumn } from '../../islands/lib/list/ListTable.tsx'
import { Pager } from '../../islands/lib/list/Pager.tsx'
import { TagFilter } from '../../islands/lib/list/TagFilter.tsx'
import { addressView, focusRing, type ListView } from '../../islands/lib/list/view.ts'
import { ui } from '../../islands/lib/ui.ts'
import { dashboardTags, listDashboards, type DashboardListKind } from '../../src/dashboards/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { allowed, requireAllowed } from '../../src/permissions/index.ts'
import { dashboardTexts as t } from '../../src/shared/dashboard-texts.ts'
import { listSearch, readListState, searchKeeps, type ListSpec, type ListState } from '../../src/shared/list/address.ts'
import { formatDay } from '../../src/shared/time.ts'
import { Icon, renderShellPage } from '../../src/ui/index.ts'

/** Spec 2 §9: lists page at 20 (5 to 100 to choose from), newest first. */
const DASHBOARD_LIST: ListSpec<'name' | 'created_at' | 'created_by'> = {
  columns: { name: 'asc', created_at: 'desc', created_by: 'asc' },
  defaultOrder: '-created_at',
  pageSizes: [5, 10, 20, 50, 100],
  defaultPageSize: 20,
  search: 'plain',
  tags: true,
}

const KINDS: { kind: DashboardListKind; path: string; label: string }[] = [
  { kind: 'all', path: '/dashboards', label: t.all },
  { kind: 'my', path: '/dashboards/my', label: t.my },
  { kind: 'favorites', path: '/dashboards/favorites', label: t.favorites },
]

const COLUMNS: ListColumn[] = [
  { label: t.favorite, hiddenLabel: true, className: 'w-12' },
  { label: t.name, sort: 'name' },
  { label: t.createdBy, sort: 'created_by', className: 'hidden w-48 md:table-cell' },
  { label: t.createdAt, sort: 'created_at', className: 'hidden w-36 sm:table-cell' },
]

type Row = Awaited<ReturnType<typeof listDashboards>>['results'][number]

const sideLink = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap ${focusRing} ${current
    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'}`

/** Why a list is empty, in the spec's words: a search, tags, favourites, or nothing made yet. */
function emptyText(kind: DashboardListKind, s: ListState, canCreate: boolean): JSX.Element | string {
  if (s.q) return t.noMatches
  if (s.tags.length) return t.noneTagged(s.tags)
  if (kind === 'favorites') return t.emptyFavorites
  if (kind === 'my' && canCreate) return <a className={ui.link} href="/dashboards/new">{t.emptyMy}</a>
  return t.emptyAll
}

function Results({ list, kind, count, rows, dateFormat, canCreate }: {
  list: ListView; kind: DashboardListKind; count: number; rows: Row[]; dateFormat: string; canCreate: boolean
}): JSX.Element {
  const summary = t.count(count)
  return (
    <div id={LIST_RESULTS_ID} data-summary={summary} className="flex flex-col gap-4">
      {rows.length === 0 ? <EmptyState>{emptyText(kind, list.s, canCreate)}</EmptyState> : (
        <ListTable list={list} caption={summary} columns={COLUMNS}>
          {rows.map((d) => (
            <tr key={d.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
              <td className="px-4 py-3 sm:px-5">
                {d.is_favorite && <span title={t.starred} className="text-amber-500"><Icon name="star" className="h-4 w-4" /><span className="sr-only">{t.starred}</span></span>}
              </td>
              <td className="px-4 py-3 sm:px-5">
                <span className="flex min-w-0 flex-wrap items-center gap-2">
                  <a href={`/dashboards/${d.id}-${d.slug}`} className={`truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 ${focusRing}`}>{d.name}</a>
                  {d.is_draft && <span className={ui.badge}>{t.unpublished}</span>}
                  {d.tags.map((tag) => <span key={tag} className={ui.badge}>{tag}</span>)}
                </span>
              </td>
              <td className="hidden truncate px-4 py-3 text-slate-600 sm:px-5 md:table-cell dark:text-slate-400">{d.user?.name ?? ''}</td>
              <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 sm:table-cell sm:px-5 dark:text-slate-400">
                <time dateTime={d.created_at!}>{formatDay(d.created_at!, { date: dateFormat })}</time>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      <Pager list={list} count={count} summary="range" sizeLabel={t.pageSize} />
    </div>
  )
}

/**
 * One dashboard list (spec 2 §2 "Dashboard lists"), rendered on the server from the same service as
 * GET /api/dashboards…, with its whole state in the address; the search narrows the rows as you type.
 */
export async function listPage(c: Context<Env>, kind: DashboardListKind, o: { newDialog?: boolean } = {}) {
  const { principal, org } = signedIn(c)
  requireAllowed(principal, 'list_dashboards')
  const deps = c.get('deps')
  const path = KINDS.find((k) => k.kind === kind)!.path
  const s = readListState(DASHBOARD_LIST, new URL(c.req.url).searchParams)
  const query = { q: s.q, order: s.order ?? undefined, page: String(s.page), page_size: String(s.pageSize) }
  let page = await listDashboards(deps, principal, kind, query, s.tags)
  // a page past the end (the list shrank since the link was made): the last page instead
  if (!page.results.length && page.count > 0) {
    page = await listDashboards(deps, principal, kind, { ...query, page: String(Math.ceil(page.count / s.pageSize)) }, s.tags)
  }
  const list = addressView(DASHBOARD_LIST, { ...s, page: page.page }, path)
  const canCreate = allowed(principal, 'create_dashboard')
  const { tags } = await dashboardTags(deps, principal)
  return renderShellPage(c, (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{t.title}</h1>
        {canCreate && <a href="/dashboards/new" className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{t.newDashboard}</a>}
      </div>
      <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
        <aside className="flex flex-col gap-4 lg:w-56 lg:shrink-0">
          <ListSearch id="dashboards-search" action={path} q={s.q} keep={searchKeeps(DASHBOARD_LIST, s)} label={t.search} placeholder={t.searchPlaceholder} />
          <nav aria-label={t.lists}>
            <ul className="flex gap-1 lg:flex-col">
              {KINDS.map((k) => (
                <li key={k.kind}>
                  <a className={sideLink(k.kind === kind)} href={k.path + listSearch(DASHBOARD_LIST, { ...s, page: 1 })}
                    aria-current={k.kind === kind ? 'page' : undefined}>{k.label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <TagFilter list={list} tags={tags} title={t.tags} tagLabel={t.tagLabel} id="dashboard-tags" />
        </aside>
        <section aria-label={t.title} className="min-w-0 flex-1">
          <Results list={list} kind={kind} count={page.count} rows={page.results} dateFormat={org.settings.date_format} canCreate={canCreate} />
        </section>
      </div>
      {o.newDialog && canCreate && <NewDashboardDialog listPath="/dashboards" />}
    </div>
  ), { title: kind === 'all' ? t.title : `${KINDS.find((k) => k.kind === kind)!.label} · ${t.title}`, section: 'dashboards' })
}
