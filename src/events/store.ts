import type { Db } from '../db/sql.ts'

export interface EventInput {
  orgId: number
  userId: number | null
  action: string
  objectType: string
  objectId: string | number | null
  properties?: Record<string, unknown>
}

export async function insertEvents(db: Db, events: EventInput[]) {
  if (!events.length) return
  await db`insert into events ${db(events.map((e) => ({
    org_id: e.orgId,
    user_id: e.userId,
    action: e.action,
    object_type: e.objectType,
    object_id: e.objectId == null ? null : String(e.objectId),
    additional_properties: db.json((e.properties ?? {}) as never),
  })))}`
}
