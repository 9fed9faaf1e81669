import { Hono } from 'hono'
import GroupDataSources from '../../../islands/GroupDataSources.tsx'
import { listDataSources, groupDataSources } from '../../../src/data-sources/index.ts'
import { NotFound } from '../../../src/errors.ts'
import { visibleGroup } from '../../../src/groups/index.ts'
import type { Env } from '../../../src/http/index.ts'
import { signedIn, idParam } from '../../../src/http/index.ts'
import { requireAdmin } from '../../../src/permissions/index.ts'
import { texts } from '../../../src/shared/texts.ts'
import { GroupFrame, renderShellPage } from '../../../src/ui/index.ts'

const t = texts.groups

/** A group's data sources and their access level (spec 3 §2 "Groups"). Admins only. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const { deps } = c.var
  const group = await visibleGroup(deps, principal, idParam(c.req.param('id'), NotFound))
  const [members, all] = await Promise.all([groupDataSources(deps, principal, group.id), listDataSources(deps, principal)])
  return renderShellPage(c, (
    <GroupFrame principal={principal} group={group} active="data_sources">
      <GroupDataSources group={{ id: group.id, name: group.name }}
        sources={members.map((d) => ({ id: d.id, name: d.name, type: d.type, view_only: d.view_only }))}
        all={all.map((d) => ({ id: d.id, name: d.name, type: d.type }))} />
    </GroupFrame>
  ), { title: `${group.name} · ${t.dataSources}`, section: 'settings' })
})
