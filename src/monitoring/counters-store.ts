import type { Db } from '../db/index.ts'
import { visibleTo, type Viewer } from '../queries/index.ts'

/**
 * What a viewer has in the organization, as the home page's onboarding and GET /api/organization/status count it:
 * active users; the data sources they can use (all of them for admins); the queries they see, drafts included and
 * archived ones not (by the same visibility rule as every query list).
 */
export async function countObjects(db: Db, v: Viewer): Promise<{ users: number; data_sources: number; queries: number }> {
  const sources = v.admin
    ? db`select count(*)::int from data_sources where org_id = ${v.orgId}`
    : db`select count(distinct d.id)::int from data_sources d join data_source_groups g on g.data_source_id = d.id
         where d.org_id = ${v.orgId} and g.group_id = any(${v.groupIds}::bigint[])`
  const [row] = await db<{ users: number; data_sources: number; queries: number }[]>`
    select (select count(*)::int from users where org_id = ${v.orgId} and disabled_at is null) as users,
           (${sources}) as data_sources,
           (select count(*)::int from queries q where ${visibleTo(db, v)} and not q.is_archived) as queries`
  return row
}
