import { Hono } from 'hono'
import GroupDataSources from '../../../islands/GroupDataSources.tsx'
import { ui } from '../../../islands/lib/ui.ts'
import { listDataSources } from '../../../src/data-sources/service.ts'
import { NotFound } from '../../../src/errors.ts'
import { groupDataSources, visibleGroup } from '../../../src/groups/service.ts'
import type { Env } from '../../../src/http/env.ts'
import { signedIn } from '../../../src/http/guards.ts'
import { idParam } from '../../../src/http/validate.ts'
import { requireAdmin } from '../../../src/permissions/require.ts'
import { texts } from '../../../src/shared/texts.ts'
import { renderShellPage } from '../../../src/ui/Page.tsx'
import { SettingsLayout } from '../../../src/ui/SettingsTabs.tsx'

const t = texts.groups

const sideLink = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${current
    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300'
    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'}`

/** A group's data sources and their access level (spec 3 §2 "Groups"). Admins only. */
export default new Hono<Env>().get('/groups/:id{[0-9]+}/data_sources', async (c) => {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const { deps } = c.var
  const group = await visibleGroup(deps, principal, idParam(c.req.param('id'), NotFound))
  const [members, all] = await Promise.all([groupDataSources(deps, principal, group.id), listDataSources(deps, principal)])
  return renderShellPage(c, (
    <SettingsLayout principal={principal} active="groups" titleIsHeading={false}>
      <div className="flex items-center gap-2">
        <h1 className="min-w-0 truncate text-xl font-semibold text-slate-900 dark:text-slate-100">{group.name}</h1>
        {group.type === 'builtin' && <span className={ui.badge}>{t.builtIn}</span>}
      </div>
      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        <nav aria-label={`${t.groupMenu}: ${group.name}`} className="md:w-48 md:shrink-0">
          <ul className="flex gap-1 md:flex-col">
            <li><a className={sideLink(false)} href={`/groups/${group.id}`}>{t.members}</a></li>
            <li><a className={sideLink(true)} href={`/groups/${group.id}/data_sources`} aria-current="page">{t.dataSources}</a></li>
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          <GroupDataSources group={{ id: group.id, name: group.name }}
            sources={members.map((d) => ({ id: d.id, name: d.name, type: d.type, view_only: d.view_only }))}
            all={all.map((d) => ({ id: d.id, name: d.name, type: d.type }))} />
        </div>
      </div>
    </SettingsLayout>
  ), { title: `${group.name} · ${t.dataSources}`, section: 'settings' })
})
