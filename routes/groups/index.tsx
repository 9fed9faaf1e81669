import { Hono } from 'hono'
import type { JSX } from 'react'
import { EmptyState } from '../../islands/lib/list/ListTable.tsx'
import { Pager } from '../../islands/lib/list/Pager.tsx'
import { addressView, type ListView } from '../../islands/lib/list/view.ts'
import { ui } from '../../islands/lib/ui.ts'
import { visibleGroups } from '../../src/groups/service.ts'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { isAdmin } from '../../src/permissions/can.ts'
import { requireAllowed } from '../../src/permissions/require.ts'
import type { Principal } from '../../src/permissions/principal.ts'
import { readListState, type ListSpec } from '../../src/shared/list/address.ts'
import { clampPage } from '../../src/shared/list/params.ts'
import { texts } from '../../src/shared/texts.ts'
import { renderShellPage } from '../../src/ui/Page.tsx'
import { SettingsLayout } from '../../src/ui/SettingsTabs.tsx'

/** Spec 3 §9: the group list pages at 10 by default and is sorted by name (so it has no sort headers). */
const GROUPS_LIST: ListSpec = { columns: {}, defaultOrder: null, pageSizes: [5, 10, 20, 50, 100], defaultPageSize: 10 }

interface Row {
  id: number
  name: string
  builtin: boolean
}

const smallButton =
  'inline-flex min-h-8 items-center rounded-md border border-slate-300 bg-white px-3 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700'

function GroupsPage({ principal, list, rows, total }: { principal: Principal; list: ListView; rows: Row[]; total: number }): JSX.Element {
  const t = texts.groups
  const admin = isAdmin(principal)
  return (
    <SettingsLayout principal={principal} active="groups">
      <section aria-labelledby="groups-title" className="flex flex-col gap-4">
        <h2 id="groups-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.title}</h2>
        {rows.length === 0 ? (
          <EmptyState>{t.empty}</EmptyState>
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
        <Pager list={list} count={total} summary="pages" sizeLabel={t.pageSize} />
      </section>
    </SettingsLayout>
  )
}

/** The groups list (spec 3 §2 "Groups"): for holders of list_users and admins; paged, sorted by name. */
export default new Hono<Env>().get('/groups', async (c) => {
  const { principal } = signedIn(c)
  requireAllowed(principal, 'list_users')
  const groups = (await visibleGroups(c.get('deps'), principal))
    .map((g) => ({ id: g.id, name: g.name, builtin: g.type === 'builtin' }))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id)
  const s = readListState(GROUPS_LIST, new URL(c.req.url).searchParams)
  const page = clampPage(s.page, groups.length, s.pageSize)
  const rows = groups.slice((page - 1) * s.pageSize, page * s.pageSize)
  return renderShellPage(c, <GroupsPage principal={principal} list={addressView(GROUPS_LIST, { ...s, page }, '/groups')} rows={rows} total={groups.length} />,
    { title: texts.groups.title, section: 'settings' })
})
