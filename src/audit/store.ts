import type { Db } from '../db/index.ts'

/** What narrows the audit log: who, what, on which object, when. Every part optional. */
export interface AuditFilter {
  orgId: number
  userId?: number
  action?: string
  objectType?: string
  objectId?: string
  since?: Date
  until?: Date
}

export interface AuditRow {
  id: number
  created_at: Date
  user_id: number | null
  user_name: string | null
  user_email: string | null
  action: string
  object_type: string
  object_id: string | null
  additional_properties: Record<string, unknown>
}

/** `after`: the id of the last event of the previous page; the page goes on from there, newest first. */
function where(db: Db, f: AuditFilter, after?: number) {
  const parts = [db`e.org_id = ${f.orgId}`, db`not e.from_browser`]
  if (f.userId !== undefined) parts.push(db`e.user_id = ${f.userId}`)
  if (f.action) parts.push(db`e.action = ${f.action}`)
  if (f.objectType) parts.push(db`e.object_type = ${f.objectType}`)
  if (f.objectId) parts.push(db`e.object_id = ${f.objectId}`)
  if (f.since) parts.push(db`e.created_at >= ${f.since}`)
  if (f.until) parts.push(db`e.created_at < ${f.until}`)
  // row comparison keeps to the (created_at desc, id desc) index, so page 10,000 costs what page 1 does
  // (the cursor's time is read in the database, at full precision: a JavaScript date would lose the microseconds)
  if (after !== undefined) parts.push(db`(e.created_at, e.id) < ((select created_at from events where id = ${after}), ${after})`)
  return parts.reduce((all, part) => db`${all} and ${part}`)
}

/** A page of the audit log, newest first; `limit` + 1 rows are read so the caller knows whether more follow. */
export async function auditPage(db: Db, f: AuditFilter, limit: number, after?: number): Promise<AuditRow[]> {
  return db<AuditRow[]>`
    select e.id, e.created_at, e.user_id, u.name as user_name, u.email::text as user_email, e.action, e.object_type,
           e.object_id, e.additional_properties
    from events e left join users u on u.id = e.user_id
    where ${where(db, f, after)}
    order by e.created_at desc, e.id desc
    limit ${limit}`
}

/**
 * Events Sightline recorded itself older than their organization's `audit_log_retention_days` (the default when not
 * set; 0 keeps them forever), a batch at a time (returns how many went).
 */
export async function deleteOldAuditEvents(db: Db, defaultDays: number, batch = 10_000): Promise<number> {
  const rows = await db`
    delete from events where id in (
      select e.id from organizations o
      cross join lateral (select coalesce((o.settings->>'audit_log_retention_days')::int, ${defaultDays}::int) as days) r
      join events e on e.org_id = o.id and not e.from_browser
      where r.days > 0 and e.created_at < now() - make_interval(days => r.days)
      limit ${batch})`
  return rows.count
}
