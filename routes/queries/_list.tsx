import type { Context } from 'hono'
import QueryListControls from '../../islands/QueryListControls.tsx'
import { hrefOf, listItemOf, parseListState, type QueryListKind } from '../../islands/lib/query-list.ts'
import { ui } from '../../islands/lib/ui.ts'
import { BadRequest, Redirect } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { allowed } from '../../src/permissions/index.ts'
import { queryListItemJson, listQueries, queryTags } from '../../src/queries/index.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'
import { dateFormatsOf } from '../../src/shared/time.ts'
import { Icon, renderShellPage } from '../../src/ui/index.ts'

const t = queryTexts.queries
const TITLES: Record<QueryListKind, string> = {
  all: t.title, my: t.my, favorites: `${t.favorites} · ${t.title}`, archive: `${t.archived} · ${t.title}`,
}

/**
 * One query list, rendered on the server from the same service as GET /api/queries…, with its whole state in the
 * address (q, tags, order, page, page_size), so links, reloads and the page without script all agree.
 */
export async function listPage(c: Context<Env>, kind: QueryListKind) {
  const { principal, org } = signedIn(c)
  const deps = c.get('deps')
  const state = parseListState(kind, new URL(c.req.url).searchParams)
  const query = { q: state.q, order: state.order ?? undefined, page: String(state.page), page_size: String(state.pageSize) }
  // the tags are counted while the list is read; should the list fail, its error is the one told
  const tags = queryTags(deps, principal)
  tags.catch(() => {})
  let page
  try {
    page = await listQueries(deps, principal, kind, query, state.tags)
  } catch (error) {
    // a page past the end (the list shrank since the link was made): show the first page instead of an error
    if (error instanceof BadRequest && state.page > 1) throw new Redirect(hrefOf(state, { page: 1 }))
    throw error
  }
  const items = page.rows.map((row) => {
    const json = queryListItemJson(row, page.users)
    return listItemOf({ ...json, created_at: json.created_at ?? '' })
  })
  const canCreate = allowed(principal, 'create_query')
  return renderShellPage(c, (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{t.title}</h1>
        {canCreate && <a href="/queries/new" className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{t.newQuery}</a>}
      </div>
      <QueryListControls state={state} count={page.count} items={items} tags={await tags} canCreate={canCreate}
        now={Date.now()} formats={dateFormatsOf(org.settings)} />
    </div>
  ), { title: TITLES[kind], section: 'queries' })
}
