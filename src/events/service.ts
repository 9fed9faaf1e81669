import { z } from 'zod'
import type { Db, Sql } from '../db/index.ts'
import type { Principal } from '../permissions/index.ts'
import { BadRequest, TooManyRequests } from '../errors.ts'
import { jsonBytes } from '../validation/index.ts'
import { boundedProperties, BROWSER_ACTIONS, BROWSER_EVENTS_PER_MINUTE, BROWSER_OBJECT_TYPES, eventTexts, OBJECT_ID } from './browser-events.ts'
import { currentRequestOrigin } from './request-origin.ts'
import { insertBrowserEventsWithin, insertEvents, type EventInput } from './store.ts'

/**
 * Record one audit event; callers pass their transaction so the event lands with the change it describes. Within a
 * request, the event notes the caller's address and browser unless the caller gave them.
 */
export async function recordEvent(db: Db, event: EventInput) {
  await insertEvents(db, [{ ...event, properties: eventProperties(event.properties) }])
}

/** An event's properties as recorded: within a request, with the caller's address and browser unless given. */
export function eventProperties(properties: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const origin = currentRequestOrigin()
  return origin ? { ip: origin.ip, user_agent: origin.userAgent, ...properties } : properties
}

/** A batch may be as large as a minute's allowance, no larger: a bigger one could never be recorded. */
const MAX_BATCH = BROWSER_EVENTS_PER_MINUTE
/** One event as stored, its extra properties included: what the browser reports is a few hundred bytes. */
const MAX_EVENT_BYTES = 10_000

const BrowserEvent = z.looseObject({
  action: z.string().trim().min(1).max(100),
  object_type: z.string().trim().min(1).max(100),
  object_id: z.union([z.string().max(200), z.number()]).nullish(),
  timestamp: z.number().optional(),
  screen_resolution: z.string().max(50).optional(),
}).refine((event) => jsonBytes(event) <= MAX_EVENT_BYTES)
const BrowserEvents = z.array(BrowserEvent).max(MAX_BATCH)

/**
 * Store a batch of usage events the browser reports (spec 1 §7: debounced, batched). Only the events browsers report
 * (src/events/browser-events.ts), with few short properties: the whole batch is refused with 400 otherwise, so
 * nobody can write made-up actions or bulk data into the audit log. Signed-in callers only (the route's 401). At most
 * BROWSER_EVENTS_PER_MINUTE per user and minute, each event of a batch counting: a batch that does not fit is
 * refused whole with 429 and the seconds until it would, so a member cannot flood the log.
 */
export async function recordBrowserEvents(
  sql: Sql, principal: Principal, body: unknown, meta: { userAgent?: string; ip?: string },
): Promise<number> {
  const parsed = BrowserEvents.safeParse(Array.isArray(body) ? body : [body])
  if (!parsed.success) {
    throw new BadRequest(`Events must be a list of at most ${MAX_BATCH} objects with action and object_type, each at most ${MAX_EVENT_BYTES.toLocaleString('en-US')} bytes as JSON.`)
  }
  const events = parsed.data.map(({ action, object_type, object_id, ...rest }): EventInput => {
    if (!BROWSER_ACTIONS.has(action) || !BROWSER_OBJECT_TYPES.has(object_type)) throw new BadRequest(eventTexts.unknownEvent(action, object_type))
    if (typeof object_id === 'number' ? !Number.isSafeInteger(object_id) : object_id != null && !OBJECT_ID.test(object_id)) {
      throw new BadRequest(eventTexts.badObjectId)
    }
    const properties = boundedProperties(rest)
    if (!properties) throw new BadRequest(eventTexts.badProperties)
    return {
      orgId: principal.orgId, userId: principal.id, action, objectType: object_type, objectId: object_id ?? null,
      properties: { ...properties, user_agent: meta.userAgent?.slice(0, 500), ip: meta.ip },
    }
  })
  if (!events.length) return 0
  const outcome = await insertBrowserEventsWithin(sql, principal.id, events, BROWSER_EVENTS_PER_MINUTE)
  if ('retryAfterSeconds' in outcome) throw new TooManyRequests(eventTexts.tooMany(outcome.retryAfterSeconds), outcome.retryAfterSeconds)
  return outcome.recorded
}
