import type { Db } from '../db/index.ts'
import type { ReportSchedule } from './schedule.ts'

/** Report subscriptions (migration 0040): rows, and the look-ups checking who and what they name. */

export type Recipient = { user_id: number } | { group_id: number } | { destination_id: number }
export type Attachment = 'png' | 'pdf' | 'csv' | 'xlsx'

/** What a subscription's owner sets (and the planner moves: `next_send_at`). */
export interface SubscriptionFields {
  dashboard_id: number | null
  query_id: number | null
  visualization_id: number | null
  schedule: ReportSchedule
  recipients: Recipient[]
  parameters: Record<string, unknown>
  filters: Record<string, unknown>
  attachments: Attachment[]
  skip_if_empty: boolean
  paused: boolean
  next_send_at: Date | null
}

export interface SubscriptionRow extends SubscriptionFields {
  id: number
  org_id: number
  user_id: number
  unsubscribed_user_ids: number[]
  last_sent_at: Date | null
  created_at: Date
  updated_at: Date
}

const json = (db: Db, value: unknown) => db.json(value as never)

export async function insertSubscription(db: Db, orgId: number, userId: number, f: SubscriptionFields): Promise<SubscriptionRow> {
  const [row] = await db<SubscriptionRow[]>`
    insert into report_subscriptions (org_id, user_id, dashboard_id, query_id, visualization_id, schedule, recipients, parameters,
                                      filters, attachments, skip_if_empty, paused, next_send_at)
    values (${orgId}, ${userId}, ${f.dashboard_id}, ${f.query_id}, ${f.visualization_id}, ${json(db, f.schedule)}, ${json(db, f.recipients)},
            ${json(db, f.parameters)}, ${json(db, f.filters)}, ${f.attachments}, ${f.skip_if_empty}, ${f.paused}, ${f.next_send_at})
    returning *`
  return row
}

export async function updateSubscription(db: Db, id: number, f: SubscriptionFields): Promise<SubscriptionRow> {
  const [row] = await db<SubscriptionRow[]>`
    update report_subscriptions
       set dashboard_id = ${f.dashboard_id}, query_id = ${f.query_id}, visualization_id = ${f.visualization_id},
           schedule = ${json(db, f.schedule)}, recipients = ${json(db, f.recipients)}, parameters = ${json(db, f.parameters)},
           filters = ${json(db, f.filters)}, attachments = ${f.attachments}, skip_if_empty = ${f.skip_if_empty}, paused = ${f.paused},
           next_send_at = ${f.next_send_at}, updated_at = now()
     where id = ${id}
    returning *`
  return row
}

export async function findSubscription(db: Db, orgId: number, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await db<SubscriptionRow[]>`select * from report_subscriptions where id = ${id} and org_id = ${orgId}`
  return row
}

export async function findSubscriptionById(db: Db, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await db<SubscriptionRow[]>`select * from report_subscriptions where id = ${id}`
  return row
}

/** The organization's reports (an admin's list), or one user's own; newest first. */
export async function listSubscriptions(db: Db, orgId: number, userId: number | null): Promise<SubscriptionRow[]> {
  return db<SubscriptionRow[]>`
    select * from report_subscriptions
     where org_id = ${orgId} and (${userId}::bigint is null or user_id = ${userId})
     order by id desc limit 5000`
}

/** Whether any report is set to go out (not paused): a worker then gets its drawing ready at start. */
export async function anyActiveSubscription(db: Db): Promise<boolean> {
  const [row] = await db<{ any: boolean }[]>`select exists (select 1 from report_subscriptions where not paused) as any`
  return row.any
}

export async function deleteSubscription(db: Db, id: number): Promise<void> {
  await db`delete from report_subscriptions where id = ${id}`
}

/** A user leaves a report (their unsubscribe link): off the list of users, and kept out of its groups' members. */
export async function removeUserRecipient(db: Db, id: number, userId: number): Promise<boolean> {
  const [row] = await db<{ id: number }[]>`
    update report_subscriptions
       set recipients = coalesce((select jsonb_agg(r) from jsonb_array_elements(recipients) r
                                   where not (r ? 'user_id' and (r->>'user_id')::bigint = ${userId})), '[]'::jsonb),
           unsubscribed_user_ids = array_append(unsubscribed_user_ids, ${userId}::bigint), updated_at = now()
     where id = ${id} and not (${userId}::bigint = any(unsubscribed_user_ids))
    returning id`
  return !!row
}

/** A destination taken off a report by its unsubscribe link; false when it was not on it (any more). */
export async function removeDestinationRecipient(db: Db, id: number, destinationId: number): Promise<boolean> {
  const [row] = await db<{ id: number }[]>`
    update report_subscriptions
       set recipients = coalesce((select jsonb_agg(r) from jsonb_array_elements(recipients) r
                                   where not (r ? 'destination_id' and (r->>'destination_id')::bigint = ${destinationId})), '[]'::jsonb),
           updated_at = now()
     where id = ${id} and recipients @> ${json(db, [{ destination_id: destinationId }])}
    returning id`
  return !!row
}

export async function setPaused(db: Db, id: number, paused: boolean, nextSendAt: Date | null): Promise<SubscriptionRow> {
  const [row] = await db<SubscriptionRow[]>`
    update report_subscriptions set paused = ${paused}, next_send_at = ${nextSendAt}, updated_at = now() where id = ${id} returning *`
  return row
}

/** Users of the organization among these ids, enabled or not. */
export async function usersIn(db: Db, orgId: number, ids: number[]) {
  if (ids.length === 0) return []
  return db<{ id: number; name: string; email: string; disabled: boolean }[]>`
    select id, name, email, disabled_at is not null as disabled from users where org_id = ${orgId} and id = any(${ids})`
}

/** Groups of the organization among these ids, with how many enabled members each has. */
export async function groupsIn(db: Db, orgId: number, ids: number[]) {
  if (ids.length === 0) return []
  return db<{ id: number; name: string; members: number }[]>`
    select g.id, g.name, (select count(*)::int from user_groups ug join users u on u.id = ug.user_id
                           where ug.group_id = g.id and u.disabled_at is null) as members
      from groups g where g.org_id = ${orgId} and g.id = any(${ids})`
}

/** Enabled members of these groups, each once. */
export async function groupMemberIds(db: Db, groupIds: number[]): Promise<number[]> {
  if (groupIds.length === 0) return []
  const rows = await db<{ id: number }[]>`
    select distinct u.id from user_groups ug join users u on u.id = ug.user_id
     where ug.group_id = any(${groupIds}) and u.disabled_at is null order by u.id`
  return rows.map((r) => Number(r.id))
}

export async function destinationsIn(db: Db, orgId: number, ids: number[]) {
  if (ids.length === 0) return []
  return db<{ id: number; name: string; type: string }[]>`select id, name, type from destinations where org_id = ${orgId} and id = any(${ids})`
}

/** The visualization's query, when the visualization belongs to it. */
export async function visualizationOfQuery(db: Db, queryId: number, visualizationId: number) {
  const [row] = await db<{ id: number; name: string; type: string }[]>`
    select id, name, type from visualizations where id = ${visualizationId} and query_id = ${queryId}`
  return row
}

/** Names shown beside reports: their owners, dashboards and queries. */
export async function namesFor(db: Db, rows: SubscriptionRow[]) {
  const userIds = [...new Set(rows.map((r) => r.user_id))]
  const dashboardIds = [...new Set(rows.flatMap((r) => (r.dashboard_id ? [r.dashboard_id] : [])))]
  const queryIds = [...new Set(rows.flatMap((r) => (r.query_id ? [r.query_id] : [])))]
  const [users, dashboards, queries] = await Promise.all([
    userIds.length ? db<{ id: number; name: string; email: string }[]>`select id, name, email from users where id = any(${userIds})` : [],
    dashboardIds.length ? db<{ id: number; name: string; slug: string }[]>`select id, name, slug from dashboards where id = any(${dashboardIds})` : [],
    queryIds.length ? db<{ id: number; name: string }[]>`select id, name from queries where id = any(${queryIds})` : [],
  ])
  return {
    users: new Map(users.map((u) => [Number(u.id), u])),
    dashboards: new Map(dashboards.map((d) => [Number(d.id), d])),
    queries: new Map(queries.map((q) => [Number(q.id), q])),
  }
}

/** What the Subscribe dialog offers an editor: the organization's enabled people, groups and destinations (at most 500 each). */
export async function shareChoices(db: Db, orgId: number) {
  const [users, groups, destinations] = await Promise.all([
    db<{ id: number; name: string }[]>`select id, name from users where org_id = ${orgId} and disabled_at is null order by name, id limit 500`,
    db<{ id: number; name: string }[]>`select id, name from groups where org_id = ${orgId} order by name limit 500`,
    db<{ id: number; name: string; type: string }[]>`select id, name, type from destinations where org_id = ${orgId} order by name limit 500`,
  ])
  return { users, groups, destinations }
}

/** The reports of one visualization of a query (an archived query takes them along). */
export async function deleteReportsOfQuery(db: Db, queryId: number): Promise<void> {
  await db`delete from report_subscriptions where query_id = ${queryId}`
}
