import { Hono } from 'hono'
import type { JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'
import { Forbidden } from '../../src/errors.ts'
import { visibleGroups } from '../../src/groups/service.ts'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { has, isAdmin } from '../../src/permissions/can.ts'
import type { Principal } from '../../src/permissions/principal.ts'
import { texts } from '../../src/shared/texts.ts'
import { renderShellPage } from '../../src/ui/Page.tsx'
import { SettingsLayout } from '../../src/ui/SettingsTabs.tsx'

const PAGE_SIZES = [5, 10, 20, 50, 100]
const DEFAULT_PAGE_SIZE = 10 // spec 3 §9: group list default page size 10, sorted by name

interface Row {
  id: number
  name: string
  builtin: boolean
}

const smallButton =
  'inline-flex min-h-8 items-center rounded-md border border-slate-300 bg-white px-3 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700'

const href = (page: number, size: number) => {
  const q = new URLSearchParams()
  if (page > 1) q.set('page', String(page))
  if (size !== DEFAULT_PAGE_SIZE) q.set('page_size', String(size))
  const s = q.toString()
  return s ? `/groups?${s}` : '/groups'
}

function GroupsPage({ principal, rows, page, pages, size, total }: {
  principal: Principal; rows: Row[]; page: number; pages: number; size: number; total: number
}): JSX.Element {
  const t = texts.groups
  const admin = isAdmin(principal)
  const pagerLink = 'rounded-md px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800'
  return (
    <SettingsLayout principal={principal} active="groups">
      <section aria-labelledby="groups-title" className="flex flex-col gap-4">
        <h2 id="groups-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.title}</h2>
        {rows.length === 0 ? (
          <p className={`${ui.card} px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400`}>{t.empty}</p>
        ) : (
          <ul className={`${ui.card} divide-y divide-slate-100 dark:divide-slate-800`} aria-labelledby="groups-title">
            {rows.map((g) => (
              <li key={g.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5">
                <div className="flex min-w-0 flex-1 items-center gap-2">
                  <a className="truncate text-sm font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300"
                    href={admin ? `/groups/${g.id}/data_sources` : `/groups/${g.id}`}>{g.name}</a>
                  {g.builtin && <span className={ui.badge}>{t.builtIn}</span>}
                </div>
                <div className="flex gap-2">
                  <a className={smallButton} href={`/groups/${g.id}`} aria-label={`${t.members}: ${g.name}`}>{t.members}</a>
                  {admin && <a className={smallButton} href={`/groups/${g.id}/data_sources`} aria-label={`${t.dataSources}: ${g.name}`}>{t.dataSources}</a>}
                </div>
              </li>
            ))}
          </ul>
        )}
        {total > PAGE_SIZES[0] && (
          <nav aria-label={t.pagination} className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <div className="flex items-center gap-1">
              {page > 1 ? <a className={pagerLink} href={href(page - 1, size)} rel="prev">{t.previous}</a> : <span className={`${pagerLink} pointer-events-none opacity-40`} aria-disabled="true">{t.previous}</span>}
              <span className="px-2 text-slate-500 dark:text-slate-400">{t.pageOf(page, pages)}</span>
              {page < pages ? <a className={pagerLink} href={href(page + 1, size)} rel="next">{t.next}</a> : <span className={`${pagerLink} pointer-events-none opacity-40`} aria-disabled="true">{t.next}</span>}
            </div>
            <div className="flex items-center gap-1">
              <span className="mr-1 text-slate-500 dark:text-slate-400">{t.pageSize}</span>
              {PAGE_SIZES.map((s) => (
                <a key={s} href={href(1, s)} aria-current={s === size ? 'true' : undefined}
                  className={`rounded-md px-2 py-1 ${s === size ? 'bg-indigo-600 font-semibold text-white' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`}>{s}</a>
              ))}
            </div>
          </nav>
        )}
      </section>
    </SettingsLayout>
  )
}

/** The groups list (spec 3 §2 "Groups"): for holders of list_users and admins; paged, sorted by name. */
export default new Hono<Env>().get('/groups', async (c) => {
  const { principal } = signedIn(c)
  if (!isAdmin(principal) && !has(principal, 'list_users')) throw new Forbidden()
  const groups = (await visibleGroups(c.get('deps'), principal))
    .map((g) => ({ id: g.id, name: g.name, builtin: g.type === 'builtin' }))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id)
  const asked = Number(c.req.query('page_size'))
  const size = PAGE_SIZES.includes(asked) ? asked : DEFAULT_PAGE_SIZE
  const pages = Math.max(1, Math.ceil(groups.length / size))
  const page = Math.min(pages, Math.max(1, Math.trunc(Number(c.req.query('page')) || 1)))
  const rows = groups.slice((page - 1) * size, page * size)
  return renderShellPage(c, <GroupsPage principal={principal} rows={rows} page={page} pages={pages} size={size} total={groups.length} />,
    { title: texts.groups.title, section: 'settings' })
})
