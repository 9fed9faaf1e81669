import { Hono } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import type { JSX } from 'react'
import GroupList from '../../islands/GroupList.tsx'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { GroupRow, GroupRows, type GroupSummary } from '../../islands/lib/GroupRow.tsx'
import { Pager } from '../../islands/lib/list/Pager.tsx'
import { addressView, type ListView } from '../../islands/lib/list/view.ts'
import { visibleGroups } from '../../src/groups/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin, requireAllowed } from '../../src/permissions/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { readListState, type ListSpec } from '../../src/shared/list/address.ts'
import { clampPage } from '../../src/shared/list/params.ts'
import { texts } from '../../src/shared/texts.ts'
import { FlashNotice, renderShellPage, SettingsLayout } from '../../src/ui/index.ts'

/** Spec 3 §9: the group list pages at 10 by default and is sorted by name (so it has no sort headers). */
const GROUPS_LIST: ListSpec = { columns: {}, defaultOrder: null, pageSizes: [5, 10, 20, 50, 100], defaultPageSize: 10 }

function GroupsPage({ principal, list, rows, total, notice }: {
  principal: Principal; list: ListView; rows: GroupSummary[]; total: number; notice?: string
}): JSX.Element {
  const t = texts.groups
  return (
    <SettingsLayout principal={principal} active="groups">
      {notice && <FlashNotice>{notice}</FlashNotice>}
      {isAdmin(principal) ? (
        // admins create and delete groups: the list is an island
        <GroupList groups={rows} />
      ) : (
        <section aria-labelledby="groups-title" className="flex flex-col gap-4">
          <h2 id="groups-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.title}</h2>
          <GroupRows empty={rows.length === 0}>
            {rows.map((g) => <GroupRow key={g.id} group={g} admin={false} />)}
          </GroupRows>
        </section>
      )}
      <Pager list={list} count={total} summary="pages" sizeLabel={t.pageSize} />
    </SettingsLayout>
  )
}

/** The groups list (spec 3 §2 "Groups"): for holders of list_users and admins; paged, sorted by name. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  requireAllowed(principal, 'list_users')
  const groups = (await visibleGroups(c.get('deps'), principal))
    .map((g) => ({ id: g.id, name: g.name, builtin: g.type === 'builtin' }))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id)
  const s = readListState(GROUPS_LIST, new URL(c.req.url).searchParams)
  const page = clampPage(s.page, groups.length, s.pageSize)
  const rows = groups.slice((page - 1) * s.pageSize, page * s.pageSize)
  // a group deleted from its own page says so here, once
  let notice: string | undefined
  if (getCookie(c, FLASH_COOKIE)) {
    if (getCookie(c, FLASH_COOKIE) === 'group_deleted') notice = texts.groups.deleted
    deleteCookie(c, FLASH_COOKIE, { path: '/groups' })
  }
  return renderShellPage(c, <GroupsPage principal={principal} list={addressView(GROUPS_LIST, { ...s, page }, '/groups')} rows={rows} total={groups.length} notice={notice} />,
    { title: texts.groups.title, section: 'settings' })
})
