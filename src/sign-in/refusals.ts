import { perDatabase, type Sql } from '../db/index.ts'
import { recordEvent } from '../events/index.ts'

/** Refused sign-ins one address may add to the audit log a minute, through identity providers and access proxies. */
export const REFUSALS_PER_MINUTE = 20
const MAX_ADDRESSES = 10_000
const recentOf = perDatabase(() => new Map<string, { since: number; count: number }>())

/**
 * A sign-in refused before anyone was known (an identity provider's answer or a proxy's header that could not be
 * accepted), in the audit log with its method and reason. Anyone can send such answers, so one address is recorded
 * at most REFUSALS_PER_MINUTE times a minute in each process: a stranger posting garbage to a callback in a loop
 * cannot fill the log. Returns whether it was recorded.
 */
export async function recordRefusal(sql: Sql, orgId: number, r: { method: string; reason: string; ip?: string | null; userAgent?: string | null; properties?: Record<string, unknown> }, now = Date.now()): Promise<boolean> {
  const key = r.ip ?? ''
  const recent = recentOf(sql)
  let seen = recent.get(key)
  if (!seen || now - seen.since >= 60_000) {
    recent.delete(key)
    recent.set(key, (seen = { since: now, count: 0 }))
    if (recent.size > MAX_ADDRESSES) recent.delete(recent.keys().next().value as string)
  }
  if (++seen.count > REFUSALS_PER_MINUTE) return false
  await recordEvent(sql, { orgId, userId: null, action: 'login_failed', objectType: 'redash', objectId: null,
    properties: { method: r.method, reason: r.reason, ...r.properties, user_agent: r.userAgent, ip: r.ip } })
  return true
}
