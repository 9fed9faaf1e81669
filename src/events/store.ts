import type { Db, Sql } from '../db/index.ts'

export interface EventInput {
  orgId: number
  userId: number | null
  action: string
  objectType: string
  objectId: string | number | null
  properties?: Record<string, unknown>
}

/** `fromBrowser`: reported through POST /api/events, so limited per minute and kept only for the browser retention. */
export async function insertEvents(db: Db, events: EventInput[], o: { fromBrowser?: boolean } = {}) {
  if (!events.length) return
  await db`insert into events ${db(events.map((e) => ({
    org_id: e.orgId,
    user_id: e.userId,
    action: e.action,
    object_type: e.objectType,
    object_id: e.objectId == null ? null : String(e.objectId),
    additional_properties: db.json((e.properties ?? {}) as never),
    from_browser: o.fromBrowser ?? false,
  })))}`
}

const MINUTE_MS = 60_000

/**
 * Store a user's browser-reported events if their last minute has room for all of them (at most `perMinute`), or
 * say in how many seconds it will. Counted in PostgreSQL under a per-user lock, so the limit holds however many web
 * processes take the user's requests; counting reads at most `perMinute` rows from a partial index.
 */
export async function insertBrowserEventsWithin(
  sql: Sql, userId: number, events: EventInput[], perMinute: number,
): Promise<{ recorded: number } | { retryAfterSeconds: number }> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('sightline_browser_events'), ${userId % 2147483647}::int)`
    const recent = await tx<{ at: Date; now: Date }[]>`
      select created_at as at, now() as now from events
      where from_browser and user_id = ${userId} and created_at > now() - interval '1 minute'
      order by created_at`
    const over = recent.length + events.length - perMinute
    if (over > 0) {
      // room comes back as the oldest of them leave the minute: enough of them for this whole batch
      const freed = recent[Math.min(over, recent.length) - 1]
      if (!freed) return { retryAfterSeconds: 60 }
      const { at, now } = freed
      return { retryAfterSeconds: Math.max(1, Math.ceil((at.getTime() + MINUTE_MS - now.getTime()) / 1000)) }
    }
    await insertEvents(tx, events, { fromBrowser: true })
    return { recorded: events.length }
  }) as Promise<{ recorded: number } | { retryAfterSeconds: number }>
}

/**
 * Browser-reported events older than the retention, a batch at a time (returns how many went). What Sightline
 * recorded itself is never touched here.
 */
export async function deleteOldBrowserEvents(db: Db, retentionDays: number, batch = 10_000): Promise<number> {
  const rows = await db`
    delete from events where id in (
      select id from events where from_browser and created_at < now() - make_interval(days => ${retentionDays}) limit ${batch})`
  return rows.count
}
