import { ADVISORY_LOCK } from '../db/advisory-locks.ts'
import type { Db } from '../db/sql.ts'
import { visibleTo, type Viewer } from '../queries/store.ts'

export interface OrgRow {
  id: number
  name: string
  slug: string
  settings: Record<string, unknown>
  created_at: Date
}

/** Sightline serves one organization per installation: the first one created at setup. */
export async function findDefaultOrg(db: Db): Promise<OrgRow | undefined> {
  const [row] = await db<OrgRow[]>`select id, name, slug, settings, created_at from organizations order by id limit 1`
  return row
}

export async function insertOrg(db: Db, name: string, slug: string, settings: Record<string, unknown> = {}): Promise<number> {
  const [{ id }] = await db<{ id: number }[]>`
    insert into organizations (name, slug, settings) values (${name}, ${slug}, ${db.json(settings as never)}) returning id`
  return id
}

export async function updateOrgSettings(db: Db, orgId: number, settings: Record<string, unknown>) {
  await db`update organizations set settings = ${db.json(settings as never)}, updated_at = now() where id = ${orgId}`
}

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

/** Setup runs once: concurrent first-run requests wait here until the first one's transaction ends. */
export async function lockSetup(db: Db) {
  await db`select pg_advisory_xact_lock(${ADVISORY_LOCK.setup})`
}
