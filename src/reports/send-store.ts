import type { Db } from '../db/index.ts'
import type { SubscriptionRow } from './store.ts'

/** Sends of reports (migration 0041): planning due times, drawing once, and the pictures chat services fetch. */

export const SEND_JOB_ATTEMPTS = 3
export const sendJobKey = (sendId: number) => `report-send:${sendId}`
/**
 * Drawing a report may wait for its widgets' runs, which need free worker slots: sends go through two graphile
 * queues, so at most two draw at once across all workers and the rest of every worker's slots stay for the runs.
 */
export const SEND_QUEUES = 2
const sendQueue = (sendId: number) => `reports-${sendId % SEND_QUEUES}`

export interface SendRow {
  id: number
  subscription_id: number
  due_at: Date | null
  late: boolean
  preview_user_id: number | null
  status: 'pending' | 'drawing' | 'drawn' | 'skipped' | 'failed'
  error: string | null
  drawing: unknown
  created_at: Date
}

/**
 * Reports due at `now`, each locked for this transaction (SKIP LOCKED: another worker planning at once takes others).
 * Their `next_send_at` is moved forward by the caller in the same transaction, so a due time is claimed once.
 */
export async function lockDueSubscriptions(db: Db, now: Date, limit: number): Promise<SubscriptionRow[]> {
  return db<SubscriptionRow[]>`
    select * from report_subscriptions
     where not paused and next_send_at is not null and next_send_at <= ${now}
     order by next_send_at limit ${limit} for update skip locked`
}

export async function moveNextSend(db: Db, id: number, next: Date | null) {
  await db`update report_subscriptions set next_send_at = ${next}, updated_at = now() where id = ${id}`
}

/** A send of one due time (once: a second insert of the same time adds nothing), or by hand; queued with its job. */
export async function insertSend(db: Db, s: { subscriptionId: number; dueAt: Date | null; late: boolean; previewUserId: number | null }): Promise<number | undefined> {
  const [row] = await db<{ id: number }[]>`
    insert into report_sends (subscription_id, due_at, late, preview_user_id)
    values (${s.subscriptionId}, ${s.dueAt}, ${s.late}, ${s.previewUserId})
    on conflict (subscription_id, due_at) do nothing returning id`
  if (!row) return undefined
  const id = Number(row.id)
  await db`select graphile_worker.add_job('send_report', ${db.json({ send_id: id })}::json, job_key => ${sendJobKey(id)}::text,
             queue_name => ${sendQueue(id)}::text, max_attempts => ${SEND_JOB_ATTEMPTS}::int)`
  return id
}

/** Takes a send for this job: one waiting, or one this same job began (graphile retried it). */
export async function claimSend(db: Db, id: number, jobId: number): Promise<SendRow | undefined> {
  const [row] = await db<SendRow[]>`
    update report_sends set status = 'drawing', claimed_job = ${jobId}, updated_at = now()
     where id = ${id} and (status = 'pending' or (status = 'drawing' and claimed_job = ${jobId}))
    returning *`
  return row
}

export async function endSend(db: Db, id: number, status: 'drawn' | 'skipped' | 'failed', error: string | null, drawing: unknown = null) {
  await db`update report_sends set status = ${status}, error = ${error}, drawing = ${drawing === null ? null : db.json(drawing as never)}, updated_at = now()
            where id = ${id}`
}

export async function markSubscriptionSent(db: Db, subscriptionId: number) {
  await db`update report_subscriptions set last_sent_at = now() where id = ${subscriptionId}`
}

export async function findSend(db: Db, id: number): Promise<SendRow | undefined> {
  const [row] = await db<SendRow[]>`select * from report_sends where id = ${id}`
  return row
}

/** The pictures of a send (one per chart), kept for chat services to fetch until `expiresAt`. */
export async function insertImage(db: Db, sendId: number, widgetId: number, png: Buffer, expiresAt: Date): Promise<number> {
  const [row] = await db<{ id: number }[]>`
    insert into report_images (send_id, widget_id, png, expires_at) values (${sendId}, ${widgetId}, ${png}, ${expiresAt})
    on conflict (send_id, widget_id) do update set png = excluded.png returning id`
  return Number(row.id)
}

export async function imagesOfSend(db: Db, sendId: number): Promise<{ id: number; widget_id: number; png: Buffer; expires_at: Date }[]> {
  return db`select id, widget_id, png, expires_at from report_images where send_id = ${sendId}`
}

/** A picture by id while it has not expired. */
export async function findLiveImage(db: Db, id: number): Promise<Buffer | undefined> {
  const [row] = await db<{ png: Buffer }[]>`select png from report_images where id = ${id} and expires_at > now()`
  return row?.png
}

export async function deleteExpiredImages(db: Db): Promise<number> {
  const rows = await db`delete from report_images where expires_at <= now() returning id`
  return rows.length
}

/** Which of these sources are Query Results sources (their rows are never shared outside, as on public dashboards). */
export async function resultsSourceIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db<{ id: number }[]>`select id from data_sources where id = any(${ids}) and type = 'results'`
  return new Set(rows.map((r) => Number(r.id)))
}

/** The sources a user may read results of (all of them for an admin), among these. */
export async function readableSourceIds(db: Db, userId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db<{ id: number }[]>`
    select ds.id from data_sources ds
     where ds.id = any(${ids}) and (
       exists (select 1 from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = ${userId} and 'admin' = any(g.permissions))
       or exists (select 1 from data_source_groups dg join user_groups ug on ug.group_id = dg.group_id
                   where ug.user_id = ${userId} and dg.data_source_id = ds.id))`
  return new Set(rows.map((r) => Number(r.id)))
}
