import type { Db } from '../db/sql.ts'

/**
 * Object counters for the organization (spec 1 §3). Each domain adds its table here as it arrives; until then
 * its count is honestly zero, since nothing of that kind can exist.
 */
export async function objectCounters(db: Db, orgId: number) {
  const [row] = await db<{ users: number; data_sources: number }[]>`
    select (select count(*)::int from users where org_id = ${orgId} and disabled_at is null) as users,
           (select count(*)::int from data_sources where org_id = ${orgId}) as data_sources`
  return { users: row.users, alerts: 0, data_sources: row.data_sources, queries: 0, dashboards: 0 }
}
